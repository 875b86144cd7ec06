/**
 * The forum's reads, one module per concern: what a post and a reply look like and are read with
 * (projections.ts), the lists (list.ts), one post and its thread
 * (thread.ts), who reacted (reactions.ts), mentions and their suggestions (mentions.ts), and the
 * local forum's places (local.ts). Importers keep this one path.
 */
export type { ForumAuthor, ForumMention, ForumPost, ForumPostDetail, ForumQuote, ForumReply, ReactedBy } from "./projections";
export { couplePlace } from "./local";
export { listPosts, listPostsBySession } from "./list";
export { readPost, readReply, readThread, visiblePostRow, visibleReplyRow } from "./thread";
export { mentionPrefixQuery, mentionSuggestions, type MentionSuggestion } from "./mentions";
