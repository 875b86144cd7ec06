/**
 * The forum's reads, one module per concern: the actor (actor.ts), what a post and a reply look
 * like (shape.ts), the lists (list.ts), one post and its thread (thread.ts), mention suggestions
 * (mentions.ts), and the local forum's places (local.ts). Importers keep this one path.
 */
export { forumActor, type ForumActor } from "./actor";
export type { ForumAuthor, ForumMention, ForumPost, ForumPostDetail, ForumQuote, ForumReply, ReactedBy } from "./shape";
export { couplePlace } from "./local";
export { listPosts, listPostsBySession } from "./list";
export { readPost, readReply, readThread, visiblePostRow } from "./thread";
export { mentionable, mentionPrefixQuery, mentionSuggestions, type MentionSuggestion } from "./mentions";
