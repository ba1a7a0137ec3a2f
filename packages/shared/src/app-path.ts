/**
 * A link a message may carry: a relative app path ("/x/…"), never "//host", a scheme, or a backslash.
 * A module of its own, without schemas, so the web client's navbar bell does not bring zod (issue 30).
 */
export const isAppPath = (link: string): boolean => /^\/(?![/\\])[^\s\\]*$/.test(link) && !/^\/[a-z][a-z0-9+.-]*:/i.test(link);
