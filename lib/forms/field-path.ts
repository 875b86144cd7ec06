/**
 * A server field message may name one item of a list (`interests.3`: zod's path into an array);
 * a form shows, and focuses, the list as one field. The form field a server field belongs to is
 * its path without trailing item numbers (`coupleData.photos.1` → `coupleData.photos`).
 */
export function listFieldOf(serverField: string): string {
  const parts = serverField.split(".");
  while (parts.length > 1 && /^\d{1,6}$/.test(parts[parts.length - 1]!)) parts.pop();
  return parts.join(".");
}
