"use client";

import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { insertMention, mentionQueryAt } from "@/lib/forum/text";
import { FacePhoto } from "@/components/ui/FacePhoto";
import { searchMentions, type ForumMention, type MentionSuggestion } from "@/lib/forum/client/api";
import styles from "./MentionTextarea.module.css";

type Props = {
  label: string;
  value: string;
  onChange(value: string): void;
  /** Called with each couple chosen from the suggestions; the form sends their ids. */
  onMention(mention: ForumMention): void;
  max: number;
  error?: string;
  disabled?: boolean;
  rows?: number;
  name: string;
};

/** Waits this long after the last key before asking the server, so typing a name is one request. */
const SEARCH_DELAY_MS = 200;

/**
 * A textarea with a live character counter, where `@` and two letters offer matching couples in
 * a listbox, faces first, found by their name or a partner's first name (named under the couple's
 * name) (combobox pattern: arrows move, Enter or Tab chooses, Escape closes); choosing one writes
 * "@Couple Name " at the caret.
 */
export function MentionTextarea({ label, value, onChange, onMention, max, error, disabled, rows = 6, name }: Props) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [query, setQuery] = useState<{ query: string; start: number; caret: number } | null>(null);
  const [options, setOptions] = useState<MentionSuggestion[]>([]);
  const [active, setActive] = useState(0);
  // The last query from this '@' that found nobody: every word is matched as a prefix, so typing
  // on from it ("@Ana and then a sentence") only narrows and needs no request.
  const empty = useRef<{ start: number; query: string } | null>(null);
  // Where the caret goes once the value with a chosen name is committed: set in that commit's
  // layout effect, before the next key is handled (a frame later, a fast typist's next letters
  // landed before it and the caret then jumped back over them).
  const caretAfterChoice = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (caretAfterChoice.current === null) return;
    ref.current?.focus();
    ref.current?.setSelectionRange(caretAfterChoice.current, caretAfterChoice.current);
    caretAfterChoice.current = null;
  });

  useEffect(() => {
    if (!query) return;
    const dead = empty.current;
    if (dead && dead.start === query.start && query.query.startsWith(dead.query)) {
      setOptions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchMentions(query.query, controller.signal).then(
        (found) => {
          empty.current = found.length === 0 ? { start: query.start, query: query.query } : null;
          setOptions(found);
          setActive(0);
        },
        () => setOptions([]),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const open = query !== null && options.length > 0;
  const listId = `${id}-mentions`;
  const counterId = `${id}-counter`;
  const errorId = `${id}-error`;

  function track(text: string, caret: number) {
    const found = mentionQueryAt(text, caret);
    setQuery(found ? { ...found, caret } : null);
    if (!found) setOptions([]);
  }

  function choose({ coupleId, name: coupleName }: MentionSuggestion) {
    const mention: ForumMention = { coupleId, name: coupleName };
    if (!query) return;
    const next = insertMention(value, query.start, query.caret, mention.name);
    onChange(next.text);
    onMention(mention);
    setQuery(null);
    setOptions([]);
    caretAfterChoice.current = next.caret;
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!open) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((index) => (index + step + options.length) % options.length);
    } else if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault();
      choose(options[active]!);
    } else if (event.key === "Escape") {
      event.preventDefault();
      setQuery(null);
      setOptions([]);
    }
  }

  const over = value.length > max;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        ref={ref}
        id={id}
        name={name}
        rows={rows}
        value={value}
        disabled={disabled}
        // A textarea keeps its textbox role (ARIA in HTML allows no other); the list it offers is
        // announced through aria-autocomplete, aria-controls and the active option.
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        aria-invalid={error || over ? true : undefined}
        aria-describedby={[counterId, error ? errorId : null].filter(Boolean).join(" ")}
        onChange={(event) => {
          onChange(event.target.value);
          track(event.target.value, event.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        // Focus coming back (or handed over from the thread's light reply form) behind "@An" offers its couples again.
        onFocus={(event) => track(event.target.value, event.target.selectionStart)}
        onBlur={() => setTimeout(() => setQuery(null), 150)}
      />
      {open && (
        <ul id={listId} role="listbox" aria-label="Couples to mention" className={styles.list}>
          {options.map((option, index) => (
            <li
              key={option.coupleId}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={styles.option}
              // mousedown, not click: the textarea keeps focus and its caret.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(option);
              }}
            >
              <FacePhoto src={option.imageUrl} size={32} />
              <span className={styles.optionText}>
                <span>{option.name}</span>
                {/* Which partner's name was typed: the writer tags the couple they meant. */}
                {option.partner && <span className={styles.partner}>{option.partner}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
      {/* A textbox cannot say a list opened (no aria-expanded on its role): this status does, once per search. */}
      <span className="visually-hidden" role="status">
        {open && `${options.length} ${options.length === 1 ? "couple" : "couples"} to mention: up and down arrows to move, Enter to choose`}
      </span>
      <span id={counterId} className={over ? "field-hint field-count-over" : "field-hint"}>
        {value.length.toLocaleString("en-US")} / {max.toLocaleString("en-US")} characters
      </span>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
