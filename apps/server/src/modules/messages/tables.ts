/** Table types of migration 0032_user_messages (declaration merging). */
import '../../db/schema.js';

export interface UserMessageTable {
  id: string;
  user_id: string;
  title: string;
  /** Plain text. */
  content: string;
  /** An app path or ''. */
  link: string;
  created_at: string;
  read_at: string | null;
}

declare module '../../db/schema.js' {
  interface Database {
    user_messages: UserMessageTable;
  }
}
