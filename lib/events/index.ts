export { createDraft, eventsCouple, joinWaitlist, listDrafts, type EventDraft, type EventsCouple } from "./service";
