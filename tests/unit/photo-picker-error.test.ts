import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PhotoPicker } from "@/components/photos/PhotoPicker";
import type { PickedPhoto } from "@/lib/images/client/photo";

const picked: PickedPhoto = { dataUrl: "data:image/jpeg;base64,/9j/", name: "me.jpg", size: 30_000, width: 400, height: 400 };
const REFUSED = "Please select a valid image file (JPEG, PNG, or WebP)";

const render = (value: PickedPhoto | null, error?: string) =>
  renderToStaticMarkup(createElement(PhotoPicker, { label: "Profile photo", kind: "avatar", value, onChange: () => {}, error }));

/** The attributes `pattern` captures (its first group), or nothing. */
const attributesOf = (html: string, pattern: RegExp) => pattern.exec(html)?.[1] ?? "";

describe("a photo field's error", () => {
  it("is the picker's description while no photo is picked", () => {
    const html = render(null, REFUSED);
    const errorId = /<p id="([^"]+)" class="field-error"/.exec(html)![1]!;
    expect(attributesOf(html, /<input ([^>]*type="file"[^>]*)>/)).toMatch(new RegExp(`aria-describedby="[^"]*${errorId}"`));
  });

  // The server refused the photo picked (its content, an expired upload): the preview's control says why.
  it("is the Remove button's description when the photo it refused is shown", () => {
    const html = render(picked, REFUSED);
    const errorId = /<p id="([^"]+)" class="field-error"/.exec(html)![1]!;
    const button = attributesOf(html, /<button ([^>]*aria-label="Remove profile photo"[^>]*)>/);
    expect(button).toContain(`aria-describedby="${errorId}"`);
  });

  it("leaves the Remove button alone without an error", () => {
    const button = attributesOf(render(picked), /<button ([^>]*aria-label="Remove profile photo"[^>]*)>/);
    expect(button).not.toContain("aria-describedby");
  });
});
