import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "@/lib/pagination/cursor";
import { CURSOR_MAX } from "@/lib/pagination/page";

const SECRET = "a-test-secret-that-is-long-enough-for-hmac";
const ID = "3f1c2a9e-5b7d-4e21-9a0b-6c8d7e5f4a3b";

describe("keyset cursors", () => {
  it("round-trips a timestamp to the millisecond and a numeric key", () => {
    const at = new Date("2026-03-20T12:34:56.789Z");
    expect(decodeCursor(SECRET, "posts:latest", encodeCursor(SECRET, "posts:latest", { sortKey: at, id: ID }))).toEqual({
      sortKey: at,
      id: ID,
    });
    expect(decodeCursor(SECRET, "posts:top", encodeCursor(SECRET, "posts:top", { sortKey: 42, id: ID }))).toEqual({ sortKey: 42, id: ID });
    expect(decodeCursor(SECRET, "posts:nearest", encodeCursor(SECRET, "posts:nearest", { sortKey: 12.5, id: ID }))).toEqual({
      sortKey: 12.5,
      id: ID,
    });
  });

  it("carries a search's pinned window when it has one", () => {
    const pinnedAt = new Date("2026-03-20T12:34:56.789Z");
    expect(decodeCursor(SECRET, "posts:rank", encodeCursor(SECRET, "posts:rank", { sortKey: 0.0607927, id: ID, pinnedAt }))).toEqual({
      sortKey: 0.0607927,
      id: ID,
      pinnedAt,
    });
    expect(encodeCursor(SECRET, "posts:rank", { sortKey: -Number.MAX_VALUE, id: ID, pinnedAt }).length).toBeLessThan(CURSOR_MAX);
  });

  it("is URL-safe without encoding", () => {
    const cursor = encodeCursor(SECRET, "posts:new", { sortKey: new Date(), id: ID });
    expect(cursor).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(encodeURIComponent(cursor)).toBe(cursor);
    // The list query refuses anything longer unread: every cursor made must fit well within it.
    expect(encodeCursor(SECRET, "posts:top", { sortKey: -Number.MAX_VALUE, id: ID }).length).toBeLessThan(CURSOR_MAX);
  });

  it("refuses a cursor whose position or tag was changed", () => {
    const cursor = encodeCursor(SECRET, "posts:latest", { sortKey: new Date("2026-03-20T12:00:00Z"), id: ID });
    const [payload, tag] = cursor.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify(["t", Date.parse("2030-01-01T00:00:00Z"), ID])).toString("base64url");
    expect(decodeCursor(SECRET, "posts:latest", `${forged}.${tag}`)).toBeNull();
    const flipped = tag.startsWith("A") ? `B${tag.slice(1)}` : `A${tag.slice(1)}`;
    expect(decodeCursor(SECRET, "posts:latest", `${payload}.${flipped}`)).toBeNull();
    expect(decodeCursor(SECRET, "posts:latest", `${payload}.${tag.slice(0, -2)}`)).toBeNull();
  });

  it("refuses a cursor made with another secret or for another list", () => {
    const cursor = encodeCursor(SECRET, "posts:latest", { sortKey: 1, id: ID });
    expect(decodeCursor(`${SECRET}x`, "posts:latest", cursor)).toBeNull();
    expect(decodeCursor(SECRET, "posts:new", cursor)).toBeNull();
  });

  it("answers null, never throws, for junk", () => {
    for (const junk of ["", ".", "abc", "a.b.c", "%%%.%%%", "x".repeat(300), "eyJ9.AAAA"])
      expect(decodeCursor(SECRET, "posts:latest", junk)).toBeNull();
  });

  it("refuses to encode a sort key that is not a finite number or a valid date", () => {
    expect(() => encodeCursor(SECRET, "posts:top", { sortKey: Number.NaN, id: ID })).toThrow();
    expect(() => encodeCursor(SECRET, "posts:new", { sortKey: new Date("nope"), id: ID })).toThrow();
  });

  it("seals a cursor whose position says more than its page: unreadable, bound to its secret and list, never read as signed", () => {
    const cursor = encodeCursor(SECRET, "directory:nearest", { sortKey: 0.0123456789, id: ID }, "sealed");
    expect(cursor).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(cursor.length).toBeLessThan(CURSOR_MAX);
    const readable = cursor
      .split(".")
      .map((part) => Buffer.from(part, "base64url").toString("latin1"))
      .join(" ");
    expect(readable).not.toContain("0.0123");
    expect(readable).not.toContain(ID);
    expect(decodeCursor(SECRET, "directory:nearest", cursor, "sealed")).toEqual({ sortKey: 0.0123456789, id: ID });
    // Each sealing is its own (a fresh nonce): two cursors of one position do not match.
    expect(encodeCursor(SECRET, "directory:nearest", { sortKey: 0.0123456789, id: ID }, "sealed")).not.toBe(cursor);
    expect(decodeCursor(`${SECRET}x`, "directory:nearest", cursor, "sealed")).toBeNull();
    expect(decodeCursor(SECRET, "directory:newest", cursor, "sealed")).toBeNull();
    expect(decodeCursor(SECRET, "directory:nearest", cursor)).toBeNull();
    const signed = encodeCursor(SECRET, "directory:nearest", { sortKey: 0.0123456789, id: ID });
    expect(decodeCursor(SECRET, "directory:nearest", signed, "sealed")).toBeNull();
    const [body, tag] = cursor.split(".") as [string, string];
    const flipped = body.startsWith("A") ? `B${body.slice(1)}` : `A${body.slice(1)}`;
    expect(decodeCursor(SECRET, "directory:nearest", `${flipped}.${tag}`, "sealed")).toBeNull();
    expect(decodeCursor(SECRET, "directory:nearest", `${body}.${tag.slice(0, -2)}`, "sealed")).toBeNull();
    for (const junk of [".", "a.b", "AAAA.AAAAAAAAAAAAAAAAAAAAAA", "x".repeat(300)])
      expect(decodeCursor(SECRET, "directory:nearest", junk, "sealed")).toBeNull();
  });
});
