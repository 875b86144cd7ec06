/**
 * Demo pictures for `npm run db:seed`: a soft two-colour gradient with the person's or the
 * couple's initials and a small "demo" mark, so they read as illustrations, never as real
 * people. Drawn as SVG, rendered to JPEG by sharp here (no downloads), then stored through the
 * storage layer exactly like an upload (lib/images/store).
 */
import sharp from "sharp";
import { storeImage } from "@/lib/images/store";
import { IMAGE_SIZES, type ImageKind } from "@/lib/images/rules";

const initial = (name: string) => name.charAt(0).toUpperCase();
/** What a demo person's picture shows: their initials ("MR"). */
export const personInitials = (person: { firstName: string; lastName: string }) =>
  `${initial(person.firstName)}${initial(person.lastName)}`;
/** What a demo couple's pictures show: both first names' initials ("M&T"). */
export const coupleInitials = (a: { firstName: string }, b: { firstName: string }) => `${initial(a.firstName)}&${initial(b.firstName)}`;

/** A stable hue per name, so a re-seed draws the same colours. */
function hueOf(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function svg(initials: string, seed: string, kind: ImageKind, variant: number): string {
  const { width, height } = IMAGE_SIZES[kind];
  const hue = (hueOf(seed) + variant * 47) % 360;
  const size = Math.round(Math.min(width, height) * 0.34);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="hsl(${hue} 70% 72%)"/><stop offset="1" stop-color="hsl(${(hue + 50) % 360} 60% 45%)"/>
  </linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <circle cx="${width * 0.8}" cy="${height * 0.2}" r="${width * 0.22}" fill="#fff" fill-opacity="0.15"/>
  <circle cx="${width * 0.15}" cy="${height * 0.85}" r="${width * 0.3}" fill="#fff" fill-opacity="0.1"/>
  <text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${size}" fill="#fff">${escapeXml(initials)}</text>
  <text x="50%" y="${height - 18}" text-anchor="middle" font-family="sans-serif" font-size="${Math.round(size / 5)}" fill="#fff" fill-opacity="0.85">demo</text>
</svg>`;
}

/** Draws one demo picture and stores it; its URL as an upload's would be. */
export async function demoImage(initials: string, seed: string, kind: ImageKind, variant = 0): Promise<string> {
  const jpeg = await sharp(Buffer.from(svg(initials, seed, kind, variant)))
    .jpeg({ quality: 85 })
    .toBuffer();
  return (await storeImage(new Uint8Array(jpeg), kind)).url;
}
