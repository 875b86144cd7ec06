/**
 * One live connection per browser, shared by its tabs (README, Live updates): over HTTP/1.1 a
 * browser opens six connections to a host, so tabs that each held a stream starved the seventh.
 *
 * - Leader: the tab holding the LEADER_LOCK (Web Locks) holds the stream and hands each event to
 *   the other tabs over a BroadcastChannel. Every other tab waits for the lock, so when the
 *   leader closes, crashes or navigates away (the browser frees its locks) the next one takes
 *   over at once and resumes from the last event id it applied.
 * - Each tab applies an event once: ids increase strictly, so an event whose id it has passed
 *   (sent again after a takeover) is dropped. The counts (`unread`) are the state now and apply
 *   unless older; `reset` always applies and moves the position where the server says.
 * - Up or down: the leader tells the others, so no tab polls while the stream feeds them all.
 * - A frozen leader: a phone freezes a hidden tab (its lock held, its stream fed to nobody). A tab
 *   shown asks the leader, and again every LOOK_AGAIN_MS while it is shown; a leader that has not
 *   answered within LEADER_ANSWER_MS is taken over with the lock's `steal`. Once it runs again it
 *   closes its stream, asks the new leader to say where the stream stands (over anything stale it
 *   said meanwhile) and queues again.
 * - The pause for hidden pages is the browser's: each visible tab holds a shared SHOWN_LOCK
 *   (freed with the tab, even when it crashes), and the leader closes the stream only when no tab
 *   has held it for HIDDEN_PAUSE_MS; a tab shown again says so, and the stream resumes.
 * A browser without Web Locks or BroadcastChannel keeps one stream per tab, paused when that tab
 * has been hidden for the minute.
 */
import "client-only";
import { HIDDEN_PAUSE_MS, RESET_EVENT, UNREAD_EVENT } from "../rules";

export const LEADER_LOCK = "two-of-us:live-leader";
export const SHOWN_LOCK = "two-of-us:live-shown";
export const TABS_CHANNEL = "two-of-us:live";

/** One open stream, as the tab that leads holds it (lib/live/client/stream.ts opens it). */
export type StreamConnection = {
  /** Closes the stream until resume() (every tab of the browser hidden for a while). */
  pause(): void;
  /** Opens it again from the last event id, if paused. */
  resume(): void;
  stop(): void;
};

/** How often a hidden leader looks whether another tab is still shown. */
const LOOK_AGAIN_MS = 15_000;
/** How long a tab shown waits for the leader's answer before taking the stream over (a running tab answers at once). */
export const LEADER_ANSWER_MS = 3_000;

/** The part of the Web Locks API used (a fake one in the unit tests). */
export type LocksLike = {
  request(
    name: string,
    options: { mode?: "shared" | "exclusive"; signal?: AbortSignal; steal?: boolean },
    granted: () => Promise<void> | void,
  ): Promise<unknown>;
  query(): Promise<{ held?: { name?: string }[] }>;
};

/** The part of BroadcastChannel used. */
export type ChannelLike = { postMessage(message: unknown): void; onmessage: ((event: MessageEvent) => void) | null; close(): void };

type TabMessage =
  | { type: "event"; name: string; data: unknown; id: string }
  /** Whether the stream is up; to a tab that joined, also the last event id the leader applied. */
  | { type: "up"; up: boolean; position?: number }
  /** A tab joined: the leader answers whether the stream is up, and from where it streams. */
  | { type: "hello" }
  /** A tab was shown or hidden: the leader looks again whether any is visible. */
  | { type: "visibility" };

export type TabsEnvironment = {
  /** Both, or neither (one stream per tab). */
  locks?: LocksLike;
  channel?: ChannelLike;
  /** Whose tabs share (the person's id): two accounts' tabs in one browser never share a stream. */
  scope?: string;
  /** Opens this tab's stream as the browser's, from the last event id applied. */
  connect(
    from: { lastEventId?: string; up: boolean },
    onEvent: (name: string, data: unknown, id: string) => void,
    onUp: (up: boolean) => void,
  ): StreamConnection;
  /** Applies an event in this tab. */
  apply(name: string, data: unknown): void;
  /** The stream feeding this tab's keys came up or went down. */
  onUp(up: boolean): void;
  visible(): boolean;
};

export type SharedStream = {
  /** Call when this tab's visibility changes. */
  visibilityChanged(): void;
  stop(): void;
};

/** A lock's or the channel's name for one person's tabs. */
export const scopedName = (name: string, scope: string | undefined): string => (scope ? `${name}:${scope}` : name);

/**
 * Whether a tab that has applied events up to `last` applies event `id` named `name`, and its
 * position after it. An id that is not a number (none is) applies and moves nothing.
 */
export function nextPosition(last: number | undefined, name: string, rawId: string): { apply: boolean; last: number | undefined } {
  const id = Number(rawId);
  if (rawId === "" || !Number.isSafeInteger(id)) return { apply: true, last };
  if (name === RESET_EVENT) return { apply: true, last: id };
  // A stream's first event carries the counts at the newest id, which this tab may have applied.
  const apply = last === undefined || id > last || (name === UNREAD_EVENT && id === last);
  return { apply, last: apply ? id : last };
}

export function shareStream(environment: TabsEnvironment): SharedStream {
  const { locks, channel } = environment.locks && environment.channel ? environment : { locks: undefined, channel: undefined };
  const stopping = new AbortController();
  let stopped = false;
  let position: number | undefined;
  let up = false;
  let connection: StreamConnection | undefined;
  let releaseLeader: (() => void) | undefined;
  /** This tab's request for the leader's lock: queued, held, or replaced by a steal. */
  let candidacy: AbortController | undefined;
  let answerTimer: ReturnType<typeof setTimeout> | undefined;
  /** Whether a leader has spoken since this tab last asked. */
  let answered = false;
  /** This tab's time as the leader, ended when the lock is stolen. */
  let leadership: object | undefined;
  let lookTimer: ReturnType<typeof setTimeout> | undefined;
  let hiddenSince: number | undefined;
  let paused = false;

  const post = (message: TabMessage) => channel?.postMessage(message);
  const leaderLock = scopedName(LEADER_LOCK, environment.scope);
  const shownLock = scopedName(SHOWN_LOCK, environment.scope);

  function deliver(name: string, data: unknown, id: string): void {
    const next = nextPosition(position, name, id);
    position = next.last;
    if (next.apply) environment.apply(name, data);
  }

  function setUp(value: boolean): void {
    if (up === value) return;
    up = value;
    environment.onUp(value);
  }

  /** Whether any tab of the browser is visible: this one, or one holding SHOWN_LOCK. */
  async function anyShown(): Promise<boolean> {
    if (environment.visible()) return true;
    if (!locks) return false;
    const { held = [] } = await locks.query().catch(() => ({ held: [{ name: shownLock }] }));
    return held.some((lock) => lock.name === shownLock);
  }

  /**
   * The leader's look at the browser's visibility: resume when a tab is shown, pause once none has
   * been for HIDDEN_PAUSE_MS. While its own tab is hidden it looks again every LOOK_AGAIN_MS: a
   * tab that crashed while shown says nothing.
   */
  async function checkShown(): Promise<void> {
    if (!connection) return;
    const shown = await anyShown();
    if (!connection || stopped) return;
    clearTimeout(lookTimer);
    lookTimer = undefined;
    if (shown) {
      hiddenSince = undefined;
      if (paused) {
        paused = false;
        connection.resume();
      }
    } else {
      hiddenSince ??= Date.now();
      if (!paused && Date.now() - hiddenSince >= HIDDEN_PAUSE_MS) {
        paused = true;
        connection.pause();
      }
    }
    if (paused || environment.visible()) return;
    const wait = shown ? LOOK_AGAIN_MS : HIDDEN_PAUSE_MS - (Date.now() - hiddenSince!);
    lookTimer = setTimeout(() => void checkShown(), wait);
  }

  function lead(): void {
    // A tab that applied no event (nothing happened since it opened, and the leader's answer did
    // not reach it) cannot resume from anywhere: its stream opens afresh, so everything it shows
    // is loaded again once it is up.
    if (position === undefined) setUp(false);
    // Calls from a stream this tab no longer leads with (stopped when the lock was stolen) are not the stream's.
    const term = (leadership = {});
    const current = () => !stopped && leadership === term;
    connection = environment.connect(
      { lastEventId: position === undefined ? undefined : String(position), up },
      (name, data, id) => {
        if (!current()) return;
        post({ type: "event", name, data, id });
        deliver(name, data, id);
      },
      (value) => {
        // A tab that stops hands the stream over: the others keep their state for the next leader.
        if (!current()) return;
        setUp(value);
        post({ type: "up", up: value });
      },
    );
    // The others hear a leader at once: a tab shown meanwhile takes nothing over.
    post({ type: "up", up, position });
    void checkShown();
  }

  /** The stream goes to the tab that stole the lock; this one keeps its state and position. */
  function stepDown(): void {
    clearTimeout(lookTimer);
    const stale = connection;
    connection = lookTimer = releaseLeader = hiddenSince = leadership = undefined;
    paused = false;
    stale?.stop();
    post({ type: "hello" });
  }

  /**
   * Asks for the leader's lock: queued behind the leader, or (`steal`) at once, the leader's taken
   * from it. A steal may carry no AbortSignal (Web Locks), so it replaces the queued request.
   */
  function standForLeader(steal = false): void {
    if (!locks) return;
    candidacy?.abort();
    const ask = (candidacy = new AbortController());
    locks
      .request(leaderLock, steal ? { steal } : { signal: ask.signal }, () => {
        if (stopped || candidacy !== ask) return;
        lead();
        return new Promise<void>((resolve) => (releaseLeader = resolve));
      })
      .catch(() => {
        // Aborted while queued (replaced, or the tab stopped), or refused: nothing was held.
        if (stopped || candidacy !== ask || !connection) return;
        // Stolen while leading: another tab leads now; this one queues again.
        stepDown();
        standForLeader();
      });
  }

  /**
   * A tab shown asks the leader, and asks again every LOOK_AGAIN_MS while it is shown (a leader
   * hidden for a while may be frozen later); no answer within LEADER_ANSWER_MS: it takes over.
   */
  function askLeader(): void {
    clearTimeout(answerTimer);
    if (!channel || connection || stopped || !environment.visible()) return;
    answered = false;
    post({ type: "hello" });
    answerTimer = setTimeout(() => {
      if (connection || stopped || !environment.visible()) return;
      if (!answered) standForLeader(true);
      else answerTimer = setTimeout(askLeader, LOOK_AGAIN_MS - LEADER_ANSWER_MS);
    }, LEADER_ANSWER_MS);
  }

  // While this tab is visible it holds SHOWN_LOCK (shared); it tells the leader once the lock is
  // held or freed, so the leader's look finds what it said.
  let shownHeld: Promise<unknown> | undefined;
  let shownAsk: object | undefined;
  let releaseShown: (() => void) | undefined;
  function trackShown(): void {
    if (!locks) return void checkShown();
    if (environment.visible()) {
      if (shownHeld) return;
      askLeader();
      const ask = (shownAsk = {});
      shownHeld = locks
        .request(shownLock, { mode: "shared", signal: stopping.signal }, () => {
          // Hidden (or hidden and shown again, asking anew) before it was granted: not held.
          if (stopped || !environment.visible() || shownAsk !== ask) return;
          announceShown();
          return new Promise<void>((resolve) => (releaseShown = resolve));
        })
        .catch(() => {});
    } else if (shownHeld) {
      clearTimeout(answerTimer);
      const held = shownHeld;
      releaseShown?.();
      releaseShown = shownHeld = shownAsk = undefined;
      void held.then(announceShown);
    }
  }
  function announceShown(): void {
    if (stopped) return;
    post({ type: "visibility" });
    void checkShown();
  }

  if (!locks || !channel) lead();
  else {
    channel.onmessage = ({ data }: MessageEvent<TabMessage>) => {
      if (stopped) return;
      if (data.type === "event") deliver(data.name, data.data, data.id);
      else if (data.type === "up" && !connection) {
        answered = true;
        // The leader's position is where this tab's state stands too: it loaded after that event.
        if (position === undefined && data.position !== undefined) position = data.position;
        setUp(data.up);
      } else if (data.type === "hello" && connection) post({ type: "up", up, position });
      else if (data.type === "visibility") void checkShown();
    };
    // A hidden tab asks too (a shown one asks in trackShown): the answer says where the stream stands.
    if (!environment.visible()) post({ type: "hello" });
    standForLeader();
    trackShown();
  }

  return {
    visibilityChanged: trackShown,
    stop() {
      stopped = true;
      stopping.abort();
      candidacy?.abort();
      clearTimeout(lookTimer);
      clearTimeout(answerTimer);
      connection?.stop();
      // This tab's keys poll again; the other tabs keep the stream's state for the next leader.
      if (up) environment.onUp(false);
      connection = undefined;
      releaseLeader?.();
      releaseShown?.();
      if (channel) {
        channel.onmessage = null;
        channel.close();
      }
    },
  };
}
