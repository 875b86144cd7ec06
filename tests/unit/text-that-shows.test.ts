import { describe, expect, it } from "vitest";
import { normalizeEmail } from "@/lib/auth/rules";
import { nameSchema } from "@/lib/auth/schemas";
import { noteField } from "@/lib/connections/schemas";
import { coupleNameField } from "@/lib/couples/schemas";
import { createPostSchema } from "@/lib/forum/schemas";
import { sendMessageSchema } from "@/lib/messages/schemas";

/**
 * Text is what a person sees: a name or a message of invisible characters alone is refused as
 * missing, a name cannot be turned around to read as another (bidirectional overrides), and an
 * accent typed as one character or as a letter and its mark is one spelling (NFC), in names and
 * in e-mail addresses alike.
 */
describe("text that shows", () => {
  it("refuses a name of invisible characters alone, and one with bidirectional overrides", () => {
    expect(nameSchema("First name").safeParse("\u200B\u200B").success).toBe(false);
    expect(nameSchema("First name").safeParse("\u202E\u200B").success).toBe(false);
    expect(nameSchema("First name").safeParse("Ana\u2066").success).toBe(false);
    expect(coupleNameField.safeParse("\u202Eecila & bob").success).toBe(false);
    expect(coupleNameField.safeParse("\u2066\u2067\u2068").success).toBe(false);
    // Names in any script, with the joiners some scripts need between letters, pass.
    expect(nameSchema("First name").parse("Zoë")).toBe("Zoë");
    expect(nameSchema("First name").parse("נועה")).toBe("נועה");
    expect(nameSchema("First name").parse("क्\u200Dष")).toBe("क्\u200Dष");
  });

  it("refuses a message, a hello's note and a post of invisible characters as empty", () => {
    expect(sendMessageSchema.safeParse({ body: "\u200B\u200D\u2060" }).error?.issues[0]?.message).toBe(
      sendMessageSchema.safeParse({ body: "" }).error?.issues[0]?.message,
    );
    expect(noteField.safeParse("\u200B \u200B").success).toBe(false);
    const post = (body: string) => createPostSchema.safeParse({ title: "A fine title", body, topic: "travel", scope: "global" }).success;
    expect([post("\u200B".repeat(40)), post("Forty words of a real post, or near enough.")]).toEqual([false, true]);
    // A pasted paragraph of mixed scripts keeps its isolates: only one-line text refuses them.
    expect(post("We met \u2067נועה ועומר\u2069 in Haifa, lovely couple.")).toBe(true);
    // An emoji sequence joined by U+200D is text that shows.
    expect(sendMessageSchema.parse({ body: "👩\u200D❤️\u200D👨" }).body).toBe("👩\u200D❤️\u200D👨");
  });

  it("spells an accent one way in a name and in an address", () => {
    expect(nameSchema("First name").parse("Jose\u0301")).toBe("Jos\u00e9");
    expect(normalizeEmail("Jose\u0301@Example.com")).toBe(normalizeEmail("jos\u00e9@example.com"));
  });
});
