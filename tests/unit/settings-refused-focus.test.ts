import { afterEach, describe, expect, it, vi } from "vitest";
import { showRefusal } from "@/components/settings/useSettingsSave";

/**
 * A settings save the server refused (components/settings/useSettingsSave.ts): its messages go on
 * the form's fields, and focus to the first refused field, a photo too (a picker react-hook-form
 * cannot focus, marked with data-field), in stand-in elements.
 */

afterEach(() => {
  vi.unstubAllGlobals();
});

function formWith(fields: Record<string, { focus: () => void }>) {
  return {
    querySelector: (selector: string) => {
      const name = /data-field="([^"]+)"/.exec(selector)?.[1];
      const control = name ? fields[name] : undefined;
      // The field's wrapper: nothing marked invalid in it (a picked photo's preview), its first control.
      return control ? { querySelector: (inner: string) => (inner.includes("aria-invalid") ? null : control), focus: vi.fn() } : null;
    },
  } as unknown as HTMLFormElement;
}

describe("a refused settings save", () => {
  it("puts the messages on the fields and focuses the refused photo's control", () => {
    vi.stubGlobal("document", { activeElement: null });
    vi.stubGlobal("CSS", { escape: (text: string) => text });
    vi.stubGlobal("requestAnimationFrame", (run: () => void) => run());
    const remove = { focus: vi.fn() };
    const setServerErrors = vi.fn();
    showRefusal({ avatar: "Please select a valid image file (JPEG, PNG, or WebP)" }, setServerErrors, formWith({ avatar: remove }));
    expect(setServerErrors).toHaveBeenCalledWith({ avatar: "Please select a valid image file (JPEG, PNG, or WebP)" });
    expect(remove.focus).toHaveBeenCalledOnce();
  });

  it("leaves a text field's focus to the form (no wrapper), and does nothing without fields", () => {
    vi.stubGlobal("document", { activeElement: null });
    vi.stubGlobal("CSS", { escape: (text: string) => text });
    const setServerErrors = vi.fn();
    expect(() => showRefusal({ firstName: "First name is required" }, setServerErrors, formWith({}))).not.toThrow();
    showRefusal({}, setServerErrors, null);
    expect(setServerErrors).toHaveBeenCalledTimes(2);
  });
});
