import { describe, expect, it } from "vitest";
import { arrivals } from "@/lib/live/arrivals";
import { reaction } from "@/lib/notifications/types/reaction";
import { isHiddenByReports, REPORTS_PER_USER } from "@/lib/safety/rules";
import {
  distanceBand,
  heardAsReply,
  REACTED_BY_SHOWN,
  whoReactedText,
  EDIT_GRACE_MS,
  FORUM_LIMITS,
  FORUM_SCOPES,
  FORUM_TOPICS,
  REACTION_KINDS,
  REACTIONS,
  REPORT_REASON_VALUES,
  REPORT_REASONS,
  SCOPE_VALUES,
  TOPIC_VALUES,
  reactionCounts,
  showsEdited,
  signature,
  topicLabel,
} from "@/lib/forum/rules";

describe("topics", () => {
  it("labels every value the database's enums hold, in their order (db/schema/forum-values.ts)", () => {
    expect(FORUM_TOPICS.map((t) => t.value)).toEqual([...TOPIC_VALUES]);
    expect(FORUM_SCOPES.map((s) => s.value)).toEqual([...SCOPE_VALUES]);
    expect(REACTIONS.map((r) => r.kind)).toEqual([...REACTION_KINDS]);
    expect(REPORT_REASONS.map((r) => r.value)).toEqual([...REPORT_REASON_VALUES]);
  });

  it("lists the eight topics in display order, each with its label", () => {
    expect(FORUM_TOPICS.map((t) => t.value)).toEqual([
      "travel",
      "food_drink",
      "outdoors",
      "culture_creativity",
      "wellness",
      "career_money",
      "home_life",
      "meetups",
    ]);
    expect(topicLabel("food_drink")).toBe("Food & Drink");
    expect(topicLabel("career_money")).toBe("Career & Money");
  });
});

describe("reactions", () => {
  it("names every button 'React with <kind>' and shows an emoji", () => {
    expect(REACTIONS.map((r) => r.label)).toEqual([
      "React with heart",
      "React with laugh",
      "React with wow",
      "React with clap",
      "React with hug",
    ]);
    for (const reaction of REACTIONS) expect(reaction.emoji).not.toBe("");
  });

  it("answers all five counts, zero where nobody reacted", () => {
    expect(reactionCounts([{ kind: "hug", count: 2 }])).toEqual({ heart: 0, laugh: 0, wow: 0, clap: 0, hug: 2 });
    expect(reactionCounts([])).toEqual({ heart: 0, laugh: 0, wow: 0, clap: 0, hug: 0 });
  });
});

describe("distanceBand", () => {
  it("shows the smallest radius a post lies within, never the distance", () => {
    expect(distanceBand(0)).toBe("within 10 km");
    expect(distanceBand(10)).toBe("within 10 km");
    expect(distanceBand(10.01)).toBe("within 25 km");
    expect(distanceBand(25)).toBe("within 25 km");
    expect(distanceBand(49.9)).toBe("within 50 km");
    expect(distanceBand(100)).toBe("within 100 km");
  });

  it("has no band beyond 100 km or for a distance that is not one", () => {
    expect(distanceBand(100.5)).toBeNull();
    expect(distanceBand(-1)).toBeNull();
    expect(distanceBand(Number.NaN)).toBeNull();
  });
});

describe("showsEdited", () => {
  const created = new Date("2026-03-20T12:00:00Z");
  const later = (ms: number) => new Date(created.getTime() + ms);

  it("shows no marker for a post never edited or edited within its first 5 minutes", () => {
    expect(showsEdited(created, null)).toBe(false);
    expect(showsEdited(created, later(60_000))).toBe(false);
    expect(showsEdited(created, later(EDIT_GRACE_MS))).toBe(false);
  });

  it("shows the marker for an edit after the first 5 minutes", () => {
    expect(showsEdited(created, later(EDIT_GRACE_MS + 1000))).toBe(true);
  });
});

describe("texts", () => {
  it("signs as the person of their couple", () => {
    expect(signature("Marisol", "Marisol & Thaddeus")).toBe("Marisol of Marisol & Thaddeus");
  });

  it("groups reaction notifications Mastodon-style, for posts and replies", () => {
    expect(reaction.text.title("Ana & Rui", 0, "post")).toBe("Ana & Rui reacted to your post");
    expect(reaction.text.title("Ana & Rui", 1, "post")).toBe("Ana & Rui and 1 other reacted to your post");
    expect(reaction.text.title("Ana & Rui", 3, "post")).toBe("Ana & Rui and 3 others reacted to your post");
    expect(reaction.text.title("Ana & Rui", 2, "reply")).toBe("Ana & Rui and 2 others reacted to your reply");
  });
});

describe("limits", () => {
  it("hides content once three different couples reported it", () => {
    expect(isHiddenByReports(2)).toBe(false);
    expect(isHiddenByReports(3)).toBe(true);
  });

  it("gives every forum limit its own bucket, per hour", () => {
    // The forum's reports count in their own bucket too (lib/safety/rules.ts).
    const limits = [...Object.values(FORUM_LIMITS), REPORTS_PER_USER];
    expect(new Set(limits.map((l) => l.bucket)).size).toBe(limits.length);
    for (const limit of limits) expect(limit.windowSeconds).toBe(3600);
  });
});

describe("whoReactedText", () => {
  it("names who reacted and counts the rest", () => {
    expect(whoReactedText(0, [])).toBe("No reactions yet");
    expect(whoReactedText(1, ["Marisol of Marisol & Thaddeus"])).toBe("Marisol of Marisol & Thaddeus");
    expect(whoReactedText(2, ["Marisol of Marisol & Thaddeus", "Rui of Ana & Rui"])).toBe(
      "Marisol of Marisol & Thaddeus and Rui of Ana & Rui",
    );
    expect(whoReactedText(3, ["A of A & B", "C of C & D", "E of E & F"])).toBe("A of A & B, C of C & D and E of E & F");
    const ten = Array.from({ length: REACTED_BY_SHOWN }, (_, i) => `P${i} of C${i}`);
    expect(whoReactedText(13, ten)).toBe(`${ten.join(", ")} and 3 others`);
    expect(whoReactedText(11, ten)).toBe(`${ten.join(", ")} and 1 other`);
    // A count that moved on since the names were read (the viewer just reacted).
    expect(whoReactedText(2, ["Marisol of Marisol & Thaddeus"])).toBe("Marisol of Marisol & Thaddeus and 1 other");
    expect(whoReactedText(2, [])).toBe("2 people");
  });

  it("reads out the replies others add to a thread while it is open, never one's own or a deleted one", () => {
    const author = (userId: string, signed: string) => ({ userId, signature: signed });
    const reply = (id: string, by: ReturnType<typeof author>, more: { body?: string; deleted?: boolean; removed?: boolean } = {}) => ({
      id,
      author: by,
      body: more.body ?? `words ${id}`,
      deleted: more.deleted ?? false,
      removed: more.removed ?? false,
    });
    const marisol = author("u-marisol", "Marisol of Marisol & Thaddeus");
    const ana = author("u-ana", "Ana of Ana & Rui");
    const thread = [
      reply("1", ana),
      reply("2", marisol),
      reply("3", ana, { body: "  see\n you " }),
      reply("4", ana, { deleted: true }),
      reply("5", ana, { removed: true }),
      reply("6", ana, { body: "x".repeat(500) }),
    ];
    const heard = arrivals(thread, "1", heardAsReply("u-marisol"));
    expect(heard.map((arrival) => arrival.id)).toEqual(["3", "6"]);
    expect(heard[0]!.text).toBe("Ana of Ana & Rui replied: see you");
    expect(heard[1]!.text.length).toBeLessThan(250);
    expect(arrivals(thread, "6", heardAsReply("u-marisol"))).toEqual([]);
    expect(arrivals(thread, "", heardAsReply("u-ana"))).toEqual([{ id: "2", text: "Marisol of Marisol & Thaddeus replied: words 2" }]);
  });
});
