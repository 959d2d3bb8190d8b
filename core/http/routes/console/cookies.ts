/**
 * Read one cookie from a Cookie header (no dependency: the console sets a single cookie). A value that is not
 * valid percent-encoding is no cookie at all: the request goes on as signed out.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Set-Cookie value of the session cookie: HttpOnly, SameSite=Strict, whole site, expiring with the session. */
export function sessionCookie(name: string, token: string, expiresAt: Date, secure: boolean): string {
  const parts = [
    `${name}=${encodeURIComponent(token)}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Expires=${expiresAt.toUTCString()}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** Set-Cookie value that deletes the session cookie. */
export function clearedCookie(name: string): string {
  return `${name}=; Path=/; HttpOnly; SameSite=Strict; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}
