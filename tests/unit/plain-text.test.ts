import { describe, expect, it } from "vitest";
import { excerpt, firstLine, LINK_LABEL_MAX, linkLabel, renderBody, type Segment } from "@/lib/plain-text";
import { CPU_BUDGET_MS, cpuMillis } from "@/tests/support/cpu";

const MAYA = { coupleId: "c-maya", name: "Maya & Theo" };
const ANA = { coupleId: "c-ana", name: "Ana" };

/** The segments of a one-line body. */
const line = (body: string, mentions = [MAYA, ANA]): Segment[] => renderBody(body, mentions)[0]![0]!;

describe("renderBody: paragraphs and lines", () => {
  it("splits paragraphs at blank lines and lines at single line breaks", () => {
    expect(renderBody("One\ntwo\n\nThree")).toEqual([
      [[{ kind: "text", text: "One" }], [{ kind: "text", text: "two" }]],
      [[{ kind: "text", text: "Three" }]],
    ]);
  });

  it("treats Windows line ends, white-space-only lines and extra blank lines as breaks, dropping empty paragraphs", () => {
    expect(renderBody("\r\n\r\nOne\r\n  \r\n\r\n\r\nTwo\n\n")).toEqual([
      [[{ kind: "text", text: "One" }]],
      [[{ kind: "text", text: "Two" }]],
    ]);
    expect(renderBody("   \n\n ")).toEqual([]);
  });

  it("keeps markup as text: no HTML is ever produced", () => {
    expect(line("<script>alert(1)</script> <b>hi</b>")).toEqual([{ kind: "text", text: "<script>alert(1)</script> <b>hi</b>" }]);
  });
});

describe("renderBody: links", () => {
  it("makes http and https URLs links, leaving trailing punctuation outside", () => {
    expect(line("See https://example.com/a?b=1, then http://x.org/path.")).toEqual([
      { kind: "text", text: "See " },
      { kind: "link", text: "https://example.com/a?b=1", href: "https://example.com/a?b=1" },
      { kind: "text", text: ", then " },
      { kind: "link", text: "http://x.org/path", href: "http://x.org/path" },
      { kind: "text", text: "." },
    ]);
  });

  it("keeps a closing bracket the URL opened, drops one that closes the sentence", () => {
    expect(line("(https://en.wikipedia.org/wiki/Lisbon_(city))")[1]).toEqual({
      kind: "link",
      text: "https://en.wikipedia.org/wiki/Lisbon_(city)",
      href: "https://en.wikipedia.org/wiki/Lisbon_(city)",
    });
    expect(line("(see https://example.com)")).toEqual([
      { kind: "text", text: "(see " },
      { kind: "link", text: "https://example.com", href: "https://example.com/" },
      { kind: "text", text: ")" },
    ]);
  });

  it("trims a URL followed by long runs of punctuation in linear time (the probe's reply)", () => {
    const body = `see https://example.com/${".".repeat(1000)}a${")".repeat(1000)}`;
    expect(line(body, [])).toEqual([
      { kind: "text", text: "see " },
      { kind: "link", text: `https://example.com/${".".repeat(1000)}a`, href: `https://example.com/${".".repeat(1000)}a` },
      { kind: "text", text: ")".repeat(1000) },
    ]);
    expect(cpuMillis(() => renderBody(body))).toBeLessThan(CPU_BUDGET_MS);
  });

  it("keeps trailing closers the URL balanced among other trailing marks", () => {
    expect(line("(https://en.wikipedia.org/wiki/Up_(film)).", [])).toEqual([
      { kind: "text", text: "(" },
      { kind: "link", text: "https://en.wikipedia.org/wiki/Up_(film)", href: "https://en.wikipedia.org/wiki/Up_(film)" },
      { kind: "text", text: ")." },
    ]);
  });

  it("trims white space at a paragraph's end in linear time", () => {
    const body = `a${" ".repeat(20_000)}b`;
    expect(renderBody(body)).toEqual([[[{ kind: "text", text: body }]]]);
    expect(cpuMillis(() => renderBody(body))).toBeLessThan(CPU_BUDGET_MS);
  });

  it("never links another scheme or a URL without a host", () => {
    for (const body of [
      "javascript:alert(1)",
      "JaVaScRiPt://example.com/%0aalert(1)",
      "data:text/html,<b>x</b>",
      "vbscript:x",
      "ftp://example.com",
      "https://",
      "xhttps://example.com",
    ]) {
      expect(line(body).every((segment) => segment.kind === "text")).toBe(true);
    }
  });

  it("stops a link at quotes and angle brackets", () => {
    expect(line('"https://example.com/x"<b>')[1]).toEqual({ kind: "link", text: "https://example.com/x", href: "https://example.com/x" });
  });

  it("accepts an upper-case scheme and normalises the href only", () => {
    expect(line("HTTPS://Example.com/Path")).toEqual([
      { kind: "link", text: "HTTPS://Example.com/Path", href: "https://example.com/Path" },
    ]);
  });
});

describe("renderBody: mentions", () => {
  it("links only the couples the server validated, longest name first", () => {
    expect(line("Hi @Maya & Theo and @ana! Not @Bob.")).toEqual([
      { kind: "text", text: "Hi " },
      { kind: "mention", coupleId: "c-maya", label: "@Maya & Theo" },
      { kind: "text", text: " and " },
      { kind: "mention", coupleId: "c-ana", label: "@Ana" },
      { kind: "text", text: "! Not @Bob." },
    ]);
  });

  it("leaves text that merely looks like a mention as text", () => {
    expect(line("@Maya & Theo", [])).toEqual([{ kind: "text", text: "@Maya & Theo" }]);
    expect(line("mail ana@example.com or @Anabel")).toEqual([{ kind: "text", text: "mail ana@example.com or @Anabel" }]);
  });

  it("does not find mentions inside links", () => {
    expect(line("https://example.com/@Ana")).toEqual([
      { kind: "link", text: "https://example.com/@Ana", href: "https://example.com/@Ana" },
    ]);
  });

  it("treats names with regular-expression characters literally", () => {
    const odd = { coupleId: "c-odd", name: "A+B (us)" };
    expect(line("hey @A+B (us)", [odd])).toEqual([
      { kind: "text", text: "hey " },
      { kind: "mention", coupleId: "c-odd", label: "@A+B (us)" },
    ]);
    expect(line("hey @AAB (us)", [odd])).toEqual([{ kind: "text", text: "hey @AAB (us)" }]);
  });
});

describe("linkLabel", () => {
  it("shows a short address whole, without its scheme", () => {
    expect(linkLabel("https://example.com/a?b=1")).toBe("example.com/a?b=1");
    expect(linkLabel("HTTP://x.org/path")).toBe("x.org/path");
  });

  it("cuts a long address to its first characters with an ellipsis", () => {
    const label = linkLabel(`https://example.com/${"a".repeat(100)}`);
    expect(label).toBe(`example.com/${"a".repeat(LINK_LABEL_MAX - 13)}…`);
    expect(Array.from(label)).toHaveLength(LINK_LABEL_MAX);
    // Exactly the limit: whole.
    const exact = `example.com/${"b".repeat(LINK_LABEL_MAX - 12)}`;
    expect(linkLabel(`https://${exact}`)).toBe(exact);
  });

  it("never cuts the host, which says where the link leads: only what follows it", () => {
    const host = "www.paypal.com.account-verification-secure.example";
    expect(linkLabel(`https://${host}/login?next=/account/settings/security`)).toBe(`${host}/…`);
    expect(linkLabel(`https://${host}`)).toBe(host);
    expect(linkLabel(`https://user@${host}?q=${"x".repeat(60)}`)).toBe(`user@${host}?…`);
  });

  it("counts characters, not UTF-16 units: an address of emoji is cut between them, and one just at the limit stays whole", () => {
    const astral = "😀".repeat(LINK_LABEL_MAX + 1);
    expect(linkLabel(`https://x.org/${astral}`)).toBe(`x.org/${"😀".repeat(LINK_LABEL_MAX - 7)}…`);
    const whole = `x.org/${"😀".repeat(LINK_LABEL_MAX - 6)}`;
    expect(linkLabel(`https://${whole}`)).toBe(whole);
  });
});

describe("excerpt", () => {
  it("keeps a short body whole with its white space collapsed", () => {
    expect(excerpt("  One\n\n two\tthree  ")).toBe("One two three");
  });

  it("cuts a long body at a word boundary near 200 characters", () => {
    const body = "word ".repeat(100);
    const cut = excerpt(body);
    expect(cut.endsWith("word…")).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(201);
    expect(cut.length).toBeGreaterThan(150);
  });

  it("cuts inside one very long word and never splits an emoji", () => {
    expect(excerpt("x".repeat(300), 10)).toBe("xxxxxxxxxx…");
    expect(excerpt("😀".repeat(20), 5)).toBe("😀😀😀😀😀…");
  });

  it("reads only the head of a long body yet gives what the whole body would: long runs of white space, emoji at the edge", () => {
    // The definition, on the whole body: collapse, then cut.
    const whole = (body: string, length: number) => {
      const flat = body.replace(/\s+/gu, " ").trim();
      const chars = Array.from(flat);
      if (chars.length <= length) return flat;
      const cut = chars.slice(0, length).join("");
      const space = cut.lastIndexOf(" ");
      return `${(space >= cut.length / 2 ? cut.slice(0, space) : cut).replace(/(?<![\s.,;:!?-])[\s.,;:!?-]+$/u, "")}…`;
    };
    const bodies = [
      `${" ".repeat(5000)}short`,
      `a${"\n".repeat(3000)}b ${"word ".repeat(50)}`,
      "😀".repeat(10_000),
      `${"x".repeat(39)}😀${"y".repeat(2000)}`,
      `${"word ".repeat(30)}${" \t\n".repeat(2000)}end`,
      "tiny",
      "",
    ];
    for (const length of [5, 40, 200])
      for (const body of bodies) expect(excerpt(body, length), `${length}: ${body.slice(0, 20)}`).toBe(whole(body, length));
  });
});

describe("firstLine", () => {
  it("takes the first line, trimmed, whole when it fits", () => {
    expect(firstLine("  Dinner on Friday?  \nWe found a place.", 140)).toBe("Dinner on Friday?");
    expect(firstLine("x".repeat(10), 10)).toBe("x".repeat(10));
  });

  it("cuts a longer one with '…' between characters, never through an emoji", () => {
    expect(firstLine("x".repeat(11), 10)).toBe(`${"x".repeat(9)}…`);
    expect(firstLine(`${"a".repeat(8)}${"😀".repeat(3)}`, 10)).toBe(`${"a".repeat(8)}😀…`);
    expect(firstLine("😀".repeat(50_000), 10)).toBe(`${"😀".repeat(9)}…`);
  });

  it("says a line goes on past the cut whatever stands at it: a space there, or spaces before the words", () => {
    // A line of 21 characters whose 11th is a space: cut, not shown as if it ended at 10.
    expect(firstLine(`${"a".repeat(10)} ${"b".repeat(10)}`, 10)).toBe(`${"a".repeat(9)}…`);
    // Leading spaces are not characters of the line: 11 of them after the trim, cut.
    expect(firstLine(`   ${"a".repeat(11)}`, 10)).toBe(`${"a".repeat(9)}…`);
    expect(firstLine(`   ${"a".repeat(10)}  \nmore`, 10)).toBe("a".repeat(10));
  });
});
