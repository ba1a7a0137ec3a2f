/**
 * The signed-in chrome and the workbench are separate chunks (the sign-in page does not need them).
 * Fetching them once the user starts typing their name means that signing in is followed by the
 * workbench, not by a spinner while its code arrives; a visitor who only opens /login loads none of it.
 */
let started = false;

export function preloadSignedIn(): void {
  if (started) return;
  started = true;
  // Same specifiers as the router's lazy() calls: the browser fetches each chunk once.
  void import('../layout/Layout').catch(() => undefined);
  void import('../features/dashboard/Dashboard').catch(() => undefined);
}
