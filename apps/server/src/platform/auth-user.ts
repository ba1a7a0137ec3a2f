/** The signed-in user a request carries (request.user, context.ts), as the session service resolves it (sessions.ts). */
export interface AuthUser {
  id: string;
  sessionId: string;
  loginName: string;
  name: string;
  roles: string[];
  deptId: string | null;
  deptName: string;
  position: string;
  mustChangePassword: boolean;
}
