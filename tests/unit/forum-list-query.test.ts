import { describe, expect, it } from "vitest";
import { forumHref, listSearchParams, pageListQuery } from "@/lib/forum/list-query";

describe("forum list state in the address", () => {
  it("reads the global forum's defaults from an empty address", () => {
    expect(pageListQuery("global", {})).toEqual({ scope: "global", sort: "latest", topic: undefined, q: undefined, radius: undefined });
  });

  it("opens the local forum nearest first within 50 km", () => {
    expect(pageListQuery("local", {})).toMatchObject({ scope: "local", sort: "nearest", radius: 50 });
  });

  it("keeps a valid order, topic, search and radius", () => {
    expect(pageListQuery("local", { sort: "latest", topic: "travel", q: " hiking ", radius: "25" })).toEqual({
      scope: "local",
      sort: "latest",
      topic: "travel",
      q: "hiking",
      radius: 25,
    });
  });

  it("drops only what a hand-edited address got wrong", () => {
    expect(pageListQuery("global", { sort: "nearest", topic: "travel" })).toMatchObject({ sort: "latest", topic: "travel" });
    expect(pageListQuery("global", { topic: "gossip", q: "wine" })).toMatchObject({ sort: "latest", topic: undefined, q: "wine" });
    expect(pageListQuery("local", { radius: "7", sort: "new" })).toMatchObject({ sort: "new", radius: 50 });
    expect(pageListQuery("global", { sort: ["top", "new"] })).toMatchObject({ sort: "top" });
  });

  it("spells the API query and the page address without empty values", () => {
    expect(listSearchParams({ scope: "global", sort: "top", q: "", cursor: "abc.def" }).toString()).toBe(
      "scope=global&sort=top&cursor=abc.def",
    );
    expect(forumHref({ scope: "local", sort: "nearest", radius: 100, topic: "meetups" })).toBe(
      "/forum/local?sort=nearest&topic=meetups&radius=100",
    );
    expect(forumHref({ scope: "global", sort: "new" })).toBe("/forum?sort=new");
  });
});
