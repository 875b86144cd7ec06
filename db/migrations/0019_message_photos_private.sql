CREATE INDEX "messages_photo_url_idx" ON "messages" USING btree ("photo_url") WHERE "messages"."photo_url" is not null;--> statement-breakpoint
-- A conversation's photos are served by the messaging route, to its members only: photos stored
-- before keep their key and take that route's URL (their old public URL is no longer served).
UPDATE "messages" SET "photo_url" = '/api/messages/photos/' || substring("photo_url" from '(message-photo/[0-9a-f]{32}\.(?:jpg|png|webp))$')
  WHERE "photo_url" ~ 'message-photo/[0-9a-f]{32}\.(jpg|png|webp)$' AND "photo_url" NOT LIKE '/api/messages/photos/%';--> statement-breakpoint
UPDATE "message_photos" SET "url" = '/api/messages/photos/' || substring("url" from '(message-photo/[0-9a-f]{32}\.(?:jpg|png|webp))$')
  WHERE "url" ~ 'message-photo/[0-9a-f]{32}\.(jpg|png|webp)$' AND "url" NOT LIKE '/api/messages/photos/%';
