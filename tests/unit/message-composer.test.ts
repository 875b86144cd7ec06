import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Composer } from "@/components/messages/Composer";
import { ComposerForm } from "@/components/messages/ComposerForm";
import type { Message } from "@/lib/messages/display";

/**
 * The conversation paints a light composer (no react-hook-form, zod or draft code) that the full
 * one replaces once reached: both are the same frame and field (MessageForm), so the swap changes
 * nothing on screen.
 */
const props = {
  conversationId: "c1",
  viewerId: "u1",
  fieldId: "composer-c1",
  replyTo: null,
  onReplyTo: () => {},
  onSent: () => {},
  onEnded: () => {},
};

const answering = {
  ...props,
  replyTo: { id: "m1", author: { firstName: "Ines" }, body: "Dinner at eight?", photoUrl: null } as unknown as Message,
};

describe("a conversation's composer", () => {
  it.each([
    ["empty", props],
    ["answering a message", answering],
  ])("paints the same markup light as the full form does (%s)", (_, props) => {
    const light = renderToString(createElement(Composer, props));
    const full = renderToString(
      createElement(ComposerForm, {
        ...props,
        attachment: {
          photo: null,
          uploading: null,
          failure: null,
          attach: () => {},
          remove: () => {},
          restore: () => {},
          clearFailure: () => {},
        },
        typing: { typed: () => {}, sent: () => {} },
        handover: { values: { body: "" }, caret: null, submit: false },
      }),
    );
    expect(light).toContain('placeholder="Write a message"');
    expect(light).toBe(full);
  });
});
