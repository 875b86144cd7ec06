export { createNotification, type NewNotification, type NotificationType } from "./create";
export { listNotifications, markRead, unreadCount } from "./notifications";
export * from "./schemas";
