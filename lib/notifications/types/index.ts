/**
 * Every notification type, one line each, in the settings' order: the database stores the type
 * as text (db/schema/notifications.ts), so a new type is its file and one line here.
 */
import { connectionAccepted } from "./connection-accepted";
import { connectionRequest } from "./connection-request";
import { mention } from "./mention";
import { moderation } from "./moderation";
import { message } from "./message";
import { partnerJoined } from "./partner-joined";
import { planCancelled } from "./plan-cancelled";
import { planChanged } from "./plan-changed";
import { planFeedback } from "./plan-feedback";
import { planProposed } from "./plan-proposed";
import { planReminder } from "./plan-reminder";
import { partnerUpdatedCoupleProfile } from "./partner-updated-couple-profile";
import { photoVerification } from "./photo-verification";
import { reaction } from "./reaction";
import { reply } from "./reply";

export const NOTIFICATION_DEFINITIONS = [
  partnerJoined,
  reply,
  mention,
  reaction,
  connectionRequest,
  connectionAccepted,
  message,
  planProposed,
  planChanged,
  planCancelled,
  planReminder,
  planFeedback,
  partnerUpdatedCoupleProfile,
  moderation,
  photoVerification,
] as const;

export type NotificationKind = (typeof NOTIFICATION_DEFINITIONS)[number]["type"];
