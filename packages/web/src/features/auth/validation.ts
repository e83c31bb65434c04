// The login form's rule (spec part 1 §5): both fields present, else one sentence for both. Kept
// here rather than parsing with the shared loginSchema, which would add zod (~24 kB gzip) to
// /login; the server still parses the same input with loginSchema.
import { MSG } from '@sluice/shared';

export function loginProblem(username: string, password: string): string | null {
  return username.trim() === '' || password === '' ? MSG.enterUsernamePassword : null;
}
