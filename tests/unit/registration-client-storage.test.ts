import { afterEach, describe, expect, it, vi } from "vitest";
import {
  BYPASS_PROFILE_CHECK_KEY,
  REGISTRATION_COMPLETED_KEY,
  clearRegistrationProgress,
  markRegistrationComplete,
  rememberAccount,
  sessionStore,
} from "@/lib/registration/client-storage";
import { MemoryStorage, RefusingStorage } from "../support/memory-storage";

/** A browser whose storages are the ones given. */
function browserWith(sessionStorage: Storage, localStorage: Storage) {
  vi.stubGlobal("window", { sessionStorage, localStorage });
}

/** Storage that reads but refuses every write, as Safari's private mode once did. */
class FullStorage extends MemoryStorage {
  constructor() {
    super(0);
  }
  override removeItem(): void {
    throw new DOMException("The operation is insecure.", "SecurityError");
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("registration flags in browser storage", () => {
  it("writes the flags where the browser allows it", () => {
    const session = new MemoryStorage();
    const local = new MemoryStorage();
    browserWith(session, local);
    markRegistrationComplete();
    rememberAccount({ userId: "u1", coupleId: "c1" });
    expect(session.getItem(REGISTRATION_COMPLETED_KEY)).toBe("true");
    expect(session.getItem(BYPASS_PROFILE_CHECK_KEY)).toBe("true");
    expect([local.getItem("user_id"), local.getItem("couple_id")]).toEqual(["u1", "c1"]);

    session.setItem("registrationLocation:u1", "x");
    session.setItem("theme", "dark");
    clearRegistrationProgress();
    expect(session.getItem(REGISTRATION_COMPLETED_KEY)).toBeNull();
    expect(session.getItem("registrationLocation:u1")).toBeNull();
    expect(session.getItem("theme")).toBe("dark");
  });

  it("never throws when the browser refuses storage writes, so a form whose call succeeded moves on", () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    for (const storage of [new RefusingStorage(), new FullStorage()]) {
      browserWith(storage, storage);
      expect(() => markRegistrationComplete()).not.toThrow();
      expect(() => rememberAccount({ userId: "u1", coupleId: "c1" })).not.toThrow();
      expect(() => clearRegistrationProgress()).not.toThrow();
    }
  });

  it("has no storage on the server, or where even reading window.sessionStorage throws", () => {
    expect(sessionStore()).toBeNull();
    vi.stubGlobal("window", {
      get sessionStorage(): Storage {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    });
    expect(sessionStore()).toBeNull();
    expect(() => markRegistrationComplete()).not.toThrow();
  });
});
