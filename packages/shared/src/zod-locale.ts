/** Zod's own messages (for rules without a message of ours) in Chinese, on both sides. */
import { z } from 'zod';

z.config(z.locales.zhCN());
