import { describe, expect, it } from "vitest";
import { SEARCH_CANDIDATES } from "@/lib/forum/search";
import { forum, forumCouple, seedPosts } from "../support/forum";

type Post = { id: string; title: string };

const ids = (res: { json: { data: Post[] } }) => res.json.data.map((p) => p.id);

describe("search (GET /api/forum/posts?q=)", () => {
  it("pages by rank with no duplicates or gaps while matching posts are added", async () => {
    const us = await forumCouple();
    const word = `quokka${Date.now()}`;
    // Title matches rank above body matches; ties are broken by id, so the order is total.
    await seedPosts(us.coupleId, us.a.userId, 4, { title: `All about the ${word}`, body: `The ${word} again` });
    await seedPosts(us.coupleId, us.a.userId, 5, { body: `We met a ${word} once` });
    const whole = ids(await forum.list(`?q=${word}&limit=50`, us.a.headers));
    expect(whole).toHaveLength(9);

    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const res = await forum.list(`?q=${word}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, us.a.headers);
      expect(res.status).toBe(200);
      seen.push(...ids(res));
      cursor = res.json.pagination.nextCursor;
      if (!cursor) break;
      // A newer and better match arrives between pages: it is not squeezed into the pages being read.
      await seedPosts(us.coupleId, us.a.userId, 1, {
        title: `${word} ${word} ${pages}`,
        body: `${word} ${word}`,
        createdAt: new Date(),
        lastActivityAt: new Date(),
      });
    }
    expect(seen).toEqual(whole);
    // A new search sees the new posts first.
    expect(ids(await forum.list(`?q=${word}&limit=50`, us.a.headers))).toHaveLength(9 + 4);
  });

  it(`ranks among the ${SEARCH_CANDIDATES} most recent matches`, async () => {
    const us = await forumCouple();
    const word = `wombat${Date.now()}`;
    // The best match is the oldest, behind SEARCH_CANDIDATES newer (weaker) ones.
    const [oldest] = await seedPosts(us.coupleId, us.a.userId, 1, {
      title: `${word} ${word}`,
      body: `${word} ${word} ${word}`,
      createdAt: new Date(Date.now() - 86_400_000),
    });
    await seedPosts(us.coupleId, us.a.userId, SEARCH_CANDIDATES, { body: `Once we saw a ${word} by the lake` });
    const res = await forum.list(`?q=${word}&limit=50`, us.a.headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(50);
    expect(ids(res)).not.toContain(oldest!.id);
    // A more precise query finds it.
    expect(ids(await forum.list(`?q=${encodeURIComponent(`${word} -lake`)}`, us.a.headers))).toEqual([oldest!.id]);
  });
});
