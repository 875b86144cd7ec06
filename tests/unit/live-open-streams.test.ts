import { describe, expect, it, vi } from "vitest";
import { createOpenStreams } from "@/lib/live/open-streams";

/** The register of an instance's open streams by person (lib/live/open-streams.ts): the cap a person. */
describe("createOpenStreams", () => {
  const stream = () => ({ displace: vi.fn() });

  it("displaces a person's oldest streams past the limit, in the order they opened, and no one else's", () => {
    const open = createOpenStreams();
    const anas = [stream(), stream(), stream()];
    const leo = stream();
    open.add("leo", leo, 2);
    anas.forEach((each) => open.add("ana", each, 2));
    expect(anas.map((each) => each.displace.mock.calls.length)).toEqual([1, 0, 0]);
    expect(leo.displace).not.toHaveBeenCalled();
    expect([open.count("ana"), open.count("leo"), open.total()]).toEqual([2, 1, 3]);
  });

  it("forgets a stream once it ends, so the next one displaces nothing", () => {
    const open = createOpenStreams();
    const [first, second, third] = [stream(), stream(), stream()];
    const leaveFirst = open.add("ana", first, 2);
    open.add("ana", second, 2);
    leaveFirst();
    leaveFirst();
    open.add("ana", third, 2);
    expect([first, second, third].map((each) => each.displace.mock.calls.length)).toEqual([0, 0, 0]);
    expect(open.count("ana")).toBe(2);
  });
});
