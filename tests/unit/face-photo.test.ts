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
