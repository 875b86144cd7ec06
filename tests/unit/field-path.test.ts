import { describe, expect, it, vi } from "vitest";
import { focusField } from "@/components/forms/useZodForm";
import { listFieldOf } from "@/lib/forms/field-path";

describe("the form field a server field message belongs to", () => {
  it("is a list item's list, however deep, and any other path as it is", () => {
    expect(listFieldOf("interests.3")).toBe("interests");
    expect(listFieldOf("coupleData.photos.1")).toBe("coupleData.photos");
    expect(listFieldOf("matrix.2.0")).toBe("matrix");
    expect(listFieldOf("userData.firstName")).toBe("userData.firstName");
    expect(listFieldOf("interests")).toBe("interests");
    expect(listFieldOf("3")).toBe("3");
  });

  it("takes the focus to the list a refused item is in", () => {
    vi.stubGlobal("CSS", { escape: (value: string) => value });
    vi.stubGlobal("document", { activeElement: null });
    const control = { focus: vi.fn() };
    const asked: string[] = [];
    const form = {
      querySelector: (selector: string) => {
        asked.push(selector);
        return selector === '[data-field="interests"]' ? { contains: () => false, querySelector: () => control } : null;
      },
    };
    focusField(form as unknown as HTMLFormElement, "interests.3");
    expect(asked).toEqual(['[data-field="interests"]']);
    expect(control.focus).toHaveBeenCalledOnce();
    vi.unstubAllGlobals();
  });
});
