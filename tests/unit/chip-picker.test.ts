import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChipPicker } from "@/components/ui/ChipPicker";

const options = [
  { value: "a", label: "Alpha", description: "First" },
  { value: "b", label: "Beta", description: "Second" },
  { value: "c", label: "Gamma", description: "Third" },
];
const render = (props: Partial<Parameters<typeof ChipPicker>[0]>) =>
  renderToStaticMarkup(
    createElement(ChipPicker, {
      kind: "style",
      legend: "Styles",
      name: "styles",
      hint: "Choose up to 2",
      max: 2,
      value: [],
      onChange() {},
      options,
      ...props,
    } as Parameters<typeof ChipPicker>[0]),
  );

describe("ChipPicker", () => {
  it("is a named group of checkboxes, each described by its description", () => {
    const html = render({});
    expect(html).toMatch(/<fieldset[^>]*><legend[^>]*>Styles<\/legend>/);
    expect(html.match(/type="checkbox"/g)).toHaveLength(3);
    expect(html).toMatch(/<input type="checkbox" aria-describedby="([^"]+)" name="styles" value="a"\/>.*?id="\1"[^>]*>First</);
  });

  it("at the limit marks the other boxes aria-disabled (still focusable), not the picked ones", () => {
    const html = render({ value: ["a", "b"] });
    expect(html).not.toContain(" disabled=");
    expect(html.match(/aria-disabled="true"/g)).toHaveLength(1);
    expect(html).toMatch(/aria-disabled="true"[^>]*value="c"/);
  });

  it("reads the hint, the count and the error with the group", () => {
    const html = render({ count: "1 of 3 selected", error: "Pick one", value: ["a"] });
    const describedBy = html.match(/<fieldset[^>]*aria-describedby="([^"]+)"/)![1]!.split(" ");
    expect(describedBy).toHaveLength(3);
    expect(html).toContain('role="status">1 of 3 selected</p>');
    expect(html).toContain(`id="${describedBy[2]}" class="field-error">Pick one</p>`);
  });

  // A refused submit moves focus to the first control marked invalid (components/forms/useZodForm):
  // a picker is one value kept by the form, so the group itself is that control, and focused it reads
  // its legend and its error.
  it("with an error, is the invalid control a refused submit can focus; without one, is neither", () => {
    expect(render({ error: "Pick one" })).toMatch(/<fieldset[^>]* aria-invalid="true"[^>]* tabindex="-1"/i);
    expect(render({})).not.toMatch(/aria-invalid|tabindex/i);
  });

  it("puts categories in collapsible sections, the first one open", () => {
    const html = render({
      options: undefined,
      categories: { Outdoors: [{ value: "hike", label: "Hiking" }], Food: [{ value: "wine", label: "Wine" }] },
    });
    expect(html.match(/<details/g)).toHaveLength(2);
    expect(html).toMatch(/<details[^>]* open="">.*Outdoors/);
    expect(html).toContain("Hiking</label>");
  });
});
