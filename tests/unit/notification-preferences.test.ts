import { describe, expect, it } from "vitest";
import { DEFAULT_PREFERENCES, NOTIFICATION_TYPES, withDefaults } from "@/lib/notifications/rules";
import { notificationPreferencesSchema } from "@/lib/notifications/schemas";

describe("notification preferences", () => {
  it("covers every type with a default; e-mail is off for reactions, 'How was it?' and a partner's couple profile changes only", () => {
    expect(Object.keys(DEFAULT_PREFERENCES).sort()).toEqual([...NOTIFICATION_TYPES].sort());
    expect(NOTIFICATION_TYPES.filter((t) => !DEFAULT_PREFERENCES[t].email).sort()).toEqual([
      "partner_updated_couple_profile",
      "plan_feedback",
      "reaction",
    ]);
  });

  it("lays stored choices over the defaults without changing the defaults", () => {
    const prefs = withDefaults([
      { type: "reply", inApp: false, email: false, push: true },
      { type: "message", inApp: true, email: false, push: null },
    ]);
    expect(prefs.reply).toEqual({ inApp: false, email: false, push: true });
    // Push came after the others: a row stored before it takes the type's default.
    expect(prefs.message).toEqual({ inApp: true, email: false, push: true });
    expect(prefs.mention).toEqual(DEFAULT_PREFERENCES.mention);
    expect(DEFAULT_PREFERENCES.reply).toEqual({ inApp: true, email: true, push: false });
  });

  it("pushes messages, hello requests, acceptances and the plans that need an answer or a reminder by default, nothing else until chosen", () => {
    expect(NOTIFICATION_TYPES.filter((t) => DEFAULT_PREFERENCES[t].push).sort()).toEqual([
      "connection_accepted",
      "connection_request",
      "message",
      "plan_cancelled",
      "plan_changed",
      "plan_proposed",
      "plan_reminder",
    ]);
  });

  it("accepts some types, refuses unknown types and half choices", () => {
    expect(notificationPreferencesSchema.safeParse({ preferences: { reply: { inApp: true, email: false } } }).success).toBe(true);
    expect(notificationPreferencesSchema.safeParse({ preferences: {} }).success).toBe(true);
    expect(notificationPreferencesSchema.safeParse({ preferences: { messages: { inApp: true, email: true } } }).success).toBe(false);
    expect(notificationPreferencesSchema.safeParse({ preferences: { reply: { inApp: true } } }).success).toBe(false);
    expect(notificationPreferencesSchema.safeParse({}).success).toBe(false);
  });
});
