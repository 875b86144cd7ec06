/** The value of the cookie `name` in a request's Cookie header, or null when it carries none. */
export function cookieValue(headers: Headers, name: string): string | null {
  const prefix = `${name}=`;
  const pair = headers
    .get("cookie")
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix));
  return pair ? pair.slice(prefix.length) : null;
}
