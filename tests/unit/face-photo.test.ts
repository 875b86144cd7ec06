import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FacePhoto } from "@/components/ui/FacePhoto";

const photo = (props: { lazy?: boolean; priority?: boolean }) =>
  FacePhoto({ src: "/face.jpg", size: 40, ...props }) as ReactElement<object>;

describe("a face's photo", () => {
  // Its props are what a server-rendered page sends in its flight data: an unset one is not sent as "$undefined".
  it("carries loading and fetchPriority only when they are set", () => {
    expect(Object.keys(photo({}).props)).not.toContain("loading");
    expect(Object.keys(photo({}).props)).not.toContain("fetchPriority");
    expect(photo({ lazy: true }).props).toMatchObject({ loading: "lazy" });
    expect(photo({ priority: true }).props).toMatchObject({ fetchPriority: "high" });
  });

  it("renders the same image either way", () => {
    expect(renderToStaticMarkup(photo({ lazy: true }))).toMatch(
      /^<img [^>]*src="\/face.jpg" alt="" width="40" height="40" loading="lazy" decoding="async"\/>$/,
    );
    expect(renderToStaticMarkup(photo({ priority: true }))).toMatch(/ fetchPriority="high" decoding="async"\/>$/);
    expect(renderToStaticMarkup(photo({}))).not.toMatch(/loading|fetchPriority/i);
  });
});

describe("the placeholder where no photo was added", () => {
  const placeholder = (alt?: string) => renderToStaticMarkup(FacePhoto({ src: null, size: 40, alt }) as ReactElement);

  // The outline is the stylesheet's: a page of placeholders does not send an SVG with each.
  it("is one empty element, hidden from assistive technology unless it is named", () => {
    expect(placeholder()).toMatch(/^<span [^>]*aria-hidden="true" data-testid="face-placeholder"><\/span>$/);
    expect(placeholder("Ana & Kai")).toMatch(/^<span [^>]*role="img" aria-label="Ana &amp; Kai" data-testid="face-placeholder"><\/span>$/);
  });
});
