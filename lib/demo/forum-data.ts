/**
 * The demo forum for `npm run db:seed`: plain values only. People are named by first name (their
 * couple is the one they belong to in data.ts); times are hours before the seed runs.
 * Marisol's three posts and the replies her demo inbox links to keep their fixed ids, so the
 * bell's links open real threads.
 */
import type { ForumScope, ForumTopic, ReactionKind } from "../forum/rules";
import { MARISOL_POSTS } from "./data";

export type DemoReply = { id?: string; by: string; body: string; hoursAgo: number; quote?: number; mentions?: string[] };
export type DemoPost = {
  id?: string;
  by: string;
  topic: ForumTopic;
  scope: ForumScope;
  title: string;
  body: string;
  hoursAgo: number;
  /** Hours before the seed its author last edited it (later than 5 minutes after posting: it shows "edited"). */
  editedHoursAgo?: number;
  mentions?: string[];
  reactions: [string, ReactionKind][];
  replies: DemoReply[];
};

/** Everyone who reacts with the same kind. */
const all = (kind: ReactionKind, ...people: string[]): [string, ReactionKind][] => people.map((person) => [person, kind]);

export const DEMO_POSTS: DemoPost[] = [
  {
    id: MARISOL_POSTS[0].id,
    by: "Marisol",
    topic: "outdoors",
    scope: "global",
    title: MARISOL_POSTS[0].title,
    body: "Thaddeus has never surfed and I haven't since I was twenty.\n\nWe want a gentle beach, a school that rents boards by the hour, and ideally a café for the one who gives up first. Where would you go in early spring?",
    hoursAgo: 80,
    reactions: [...all("heart", "Perpetua", "Leocadia", "Seraphina"), ...all("laugh", "Jericho", "Horatio")],
    replies: [
      {
        id: "a472edf6-434c-44e6-b950-3ec497fccd6e",
        by: "Jericho",
        body: "Carcavelos on a small day is perfect for a first lesson. Bring a 4/3 wetsuit.",
        hoursAgo: 50,
      },
      {
        by: "Seraphina",
        body: "Costa da Caparica! Longer beach, fewer people, and the schools there are lovely with nervous beginners.",
        hoursAgo: 46,
      },
      { by: "Thaddeus", body: "Nervous beginner here. Noted.", hoursAgo: 45, quote: 1 },
      { by: "Marcellus", body: "Whatever you pick, go at low tide the first time. Everything is easier.", hoursAgo: 20 },
    ],
  },
  {
    id: MARISOL_POSTS[1].id,
    by: "Marisol",
    topic: "meetups",
    scope: "global",
    title: MARISOL_POSTS[1].title,
    body: "We're walking from Graça down to the river on Saturday morning, photographing azulejos as we go. Slow pace, pastries at the halfway point.\n\nAnyone visiting Lisbon is welcome: reply and we'll share the meeting point.",
    hoursAgo: 40,
    reactions: [...all("heart", "Cordelia", "Horatio", "Nerys"), ...all("clap", "Perpetua")],
    replies: [
      {
        id: "1231e1d6-e910-4ac0-be05-76612c13206e",
        by: "Cordelia",
        body: "@Marisol & Thaddeus we're in Lisbon in May: can we join the tile walk?",
        hoursAgo: 26,
        mentions: ["Marisol"],
      },
      { by: "Marisol", body: "Of course! We'll do another one in May just for you two.", hoursAgo: 24, quote: 0 },
      { by: "Nerys", body: "Saving this for our trip in the autumn. The Museu do Azulejo is worth the detour too.", hoursAgo: 12 },
    ],
  },
  {
    id: MARISOL_POSTS[2].id,
    by: "Marisol",
    topic: "food_drink",
    scope: "local",
    title: MARISOL_POSTS[2].title,
    body: "We keep going back to the same three places. Where do you eat when you want paper tablecloths, the dish of the day and nobody taking photos of it?",
    hoursAgo: 30,
    reactions: [...all("heart", "Thaddeus"), ...all("wow", "Thaddeus")],
    replies: [
      {
        id: "87e0b450-3c88-4638-9c41-51b7599225c8",
        by: "Perpetua",
        body: "Try O Trevo for bifanas, and go early: by noon the queue is the whole street.",
        hoursAgo: 5,
      },
      { by: "Thaddeus", body: "Adding the one behind the market in Campo de Ourique: grilled fish on Fridays.", hoursAgo: 4 },
    ],
  },
  {
    by: "Perpetua",
    topic: "travel",
    scope: "global",
    title: "Two weeks in Japan on one rail pass: our route",
    body: "Tokyo, Kanazawa, Kyoto, Naoshima, Hiroshima, back to Tokyo. The pass paid for itself by day six.\n\nHappy to share the spreadsheet: https://example.com/japan-route",
    hoursAgo: 70,
    editedHoursAgo: 68,
    reactions: [...all("heart", "Marisol", "Leocadia", "Nephele", "Clementine"), ...all("wow", "Indigo")],
    replies: [
      { by: "Nephele", body: "Naoshima was the highlight of our trip too. Did you stay on the island?", hoursAgo: 66 },
      {
        by: "Silvanus",
        body: "We did, two nights at a guesthouse by the port. Worth it to see the art after the day-trippers leave.",
        hoursAgo: 64,
        quote: 0,
      },
      {
        by: "Indigo",
        body: "Saving this. @Perpetua & Silvanus how did you book the ryokan in Kanazawa?",
        hoursAgo: 30,
        mentions: ["Perpetua"],
      },
    ],
  },
  {
    by: "Leocadia",
    topic: "outdoors",
    scope: "global",
    title: "Hut-to-hut in the Dolomites as a couple: what we'd do differently",
    body: "Book the huts in January. Pack half of what you think. Agree on a daily 'we can stop here' point before you start walking.\n\nThat last one saved our holiday.",
    hoursAgo: 120,
    reactions: [...all("clap", "Marisol", "Cordelia", "Dashiell", "Sorrel"), ...all("laugh", "Thaddeus")],
    replies: [
      { by: "Dashiell", body: "The 'we can stop here' rule should be taught in schools.", hoursAgo: 110 },
      { by: "Cordelia", body: "Which stretch was your favourite? We're thinking of the Alta Via 1.", hoursAgo: 90 },
      { by: "Jericho", body: "Alta Via 1, days three to five. Lago di Fedaia at sunrise.", hoursAgo: 88, quote: 1 },
    ],
  },
  {
    by: "Cordelia",
    topic: "culture_creativity",
    scope: "global",
    title: "Couples who make things together: show us",
    body: "Horatio builds furniture, I upholster it. Our first chair together took four months and one serious argument.\n\nWhat do you two make?",
    hoursAgo: 55,
    reactions: [...all("heart", "Marisol", "Nerys", "Clementine", "Seraphina", "Perpetua")],
    replies: [
      { by: "Clementine", body: "Nephele throws pots, I glaze them. We've stopped arguing about colours. Mostly.", hoursAgo: 50 },
      { by: "Marcellus", body: "A sourdough starter counts, right? It's three years old and has a name.", hoursAgo: 44 },
      { by: "Cordelia", body: "It absolutely counts. What's its name?", hoursAgo: 43, quote: 1 },
      { by: "Seraphina", body: "Gaudí. Of course.", hoursAgo: 42, quote: 2 },
    ],
  },
  {
    by: "Seraphina",
    topic: "food_drink",
    scope: "global",
    title: "Our Sunday paella, the slow way",
    body: "Socarrat is a patience test. Medium heat, no stirring, and listen for the crackle.\n\nRecipe in the replies if anyone wants it.",
    hoursAgo: 100,
    reactions: [...all("heart", "Horatio", "Marisol", "Sorrel"), ...all("wow", "Leocadia")],
    replies: [
      { by: "Sorrel", body: "Yes please to the recipe.", hoursAgo: 98 },
      {
        by: "Seraphina",
        body: "Bomba rice, chicken and rabbit, garrofó beans, saffron, rosemary at the end. No chorizo, ever.",
        hoursAgo: 97,
        quote: 0,
      },
    ],
  },
  {
    by: "Nerys",
    topic: "wellness",
    scope: "global",
    title: "A phone-free evening every week: three months in",
    body: "Tuesdays, 7 pm to bedtime, both phones in a drawer. We cook, we read, we talk more than we expected.\n\nThe first two weeks were strangely hard.",
    hoursAgo: 28,
    reactions: [...all("heart", "Leocadia", "Cordelia", "Marisol", "Nephele", "Indigo"), ...all("hug", "Thaddeus")],
    replies: [
      { by: "Leocadia", body: "We tried this and lasted nine days. Starting again tonight.", hoursAgo: 25 },
      { by: "Dashiell", body: "The drawer matters. Face-down on the table does not work.", hoursAgo: 22 },
    ],
  },
  {
    by: "Indigo",
    topic: "career_money",
    scope: "global",
    title: "Shared account, separate accounts, or both?",
    body: "We've done all three over eight years. Right now: one joint account for the house and trips, our own for everything else, and a rule that anything over 200 gets a conversation.\n\nCurious what works for others.",
    hoursAgo: 60,
    reactions: [...all("clap", "Silvanus", "Horatio", "Dashiell"), ...all("heart", "Perpetua")],
    replies: [
      { by: "Silvanus", body: "Same setup, different number. The conversation rule is the real trick.", hoursAgo: 58 },
      { by: "Clementine", body: "We split the joint account by income, not fifty-fifty. It felt fairer.", hoursAgo: 41 },
      { by: "Sorrel", body: "The income split is what finally stopped our Sunday-night spreadsheet.", hoursAgo: 39, quote: 1 },
    ],
  },
  {
    by: "Nephele",
    topic: "home_life",
    scope: "global",
    title: "Renovating a 1920s terrace without breaking up",
    body: "Eleven months, one kitchen, zero builders who turned up on time. We survived by giving each of us one room to decide alone.",
    hoursAgo: 150,
    reactions: [...all("laugh", "Thaddeus", "Marcellus"), ...all("hug", "Leocadia", "Cordelia")],
    replies: [{ by: "Horatio", body: "One room each is genius. Mine would be the workshop, obviously.", hoursAgo: 140 }],
  },
  {
    by: "Horatio",
    topic: "meetups",
    scope: "global",
    title: "Board game night in Paris, first Thursday of the month",
    body: "Small bar in the 11th, games provided, couples of every level welcome. We had six couples last time and nobody flipped a table.",
    hoursAgo: 18,
    mentions: ["Seraphina"],
    reactions: [...all("heart", "Cordelia", "Seraphina", "Nerys")],
    replies: [
      { by: "Seraphina", body: "We'll be in Paris that week. Count us in!", hoursAgo: 14 },
      { by: "Nerys", body: "Is it in English or French? Our French is… optimistic.", hoursAgo: 9 },
      { by: "Horatio", body: "Both, and the games don't care.", hoursAgo: 8, quote: 1 },
    ],
  },
  {
    by: "Jericho",
    topic: "outdoors",
    scope: "local",
    title: "Cycling the Mauerweg this weekend",
    body: "Saturday, 60 km of the old wall route, flat and easy, lots of stops. Meeting at Bernauer Straße at 9.",
    hoursAgo: 22,
    reactions: all("heart", "Leocadia"),
    replies: [{ by: "Leocadia", body: "I'll bring the thermos.", hoursAgo: 21 }],
  },
  {
    by: "Dashiell",
    topic: "meetups",
    scope: "local",
    title: "Borrel on a boat, Amsterdam, Friday",
    body: "A friend's salon boat, twelve people max, bring something to share. Leaves from Westerdok at 6.",
    hoursAgo: 35,
    reactions: all("clap", "Nerys"),
    replies: [],
  },
  {
    by: "Clementine",
    topic: "food_drink",
    scope: "local",
    title: "Best dumplings in Melbourne's CBD, ranked by two very serious people",
    body: "We ate at eleven places in a month. Our top three, with notes, below.\n\n1. The one down the laneway off Little Bourke\n2. The one with the red door\n3. The one that's only open until 3",
    hoursAgo: 75,
    reactions: all("laugh", "Nephele"),
    replies: [{ by: "Nephele", body: "I stand by our ranking. Clementine wanted to swap 2 and 3.", hoursAgo: 74 }],
  },
  {
    by: "Sorrel",
    topic: "outdoors",
    scope: "local",
    title: "Toronto Islands picnic while the weather holds",
    body: "Ward's Island, Sunday from noon. We'll bring a frisbee and far too many sandwiches.",
    hoursAgo: 16,
    reactions: all("heart", "Indigo"),
    replies: [],
  },
  {
    by: "Silvanus",
    topic: "culture_creativity",
    scope: "local",
    title: "Free late at the Tate Modern: anyone going Friday?",
    body: "We'll be at the Turbine Hall around 7, then probably the Switch House bar if it's quiet.",
    hoursAgo: 27,
    reactions: all("heart", "Perpetua"),
    replies: [{ by: "Perpetua", body: "And if it isn't quiet, the pub on the corner.", hoursAgo: 26 }],
  },
  {
    by: "Thaddeus",
    topic: "travel",
    scope: "local",
    title: "Day trip to Sintra without the crowds",
    body: "Take the first train, walk up to the Moorish Castle before the buses arrive, then Monserrate in the afternoon. Pena can wait for a weekday in winter.",
    hoursAgo: 12,
    reactions: all("heart", "Marisol"),
    replies: [],
  },
  {
    by: "Marcellus",
    topic: "travel",
    scope: "global",
    title: "Slow travel by night train: Barcelona to Vienna",
    body: "Two trains, one night, a shared sleeper compartment and breakfast over the Alps. Cheaper than the flight once you count the hotel.",
    hoursAgo: 90,
    reactions: [...all("wow", "Leocadia", "Cordelia"), ...all("heart", "Marisol")],
    replies: [
      { by: "Leocadia", body: "The Nightjet is our favourite way to arrive anywhere.", hoursAgo: 85 },
      { by: "Marisol", body: "@Seraphina & Marcellus did you book the private compartment?", hoursAgo: 70, mentions: ["Seraphina"] },
      { by: "Marcellus", body: "We did: worth every cent for the window seat at sunrise.", hoursAgo: 68, quote: 1 },
    ],
  },
  {
    by: "Eulalia",
    topic: "wellness",
    scope: "global",
    title: "Winter bathing in Copenhagen: who else?",
    body: "Three minutes in 4 °C water, then the sauna, then breakfast. Lysander says he'll join once he's set up his profile.",
    hoursAgo: 8,
    reactions: [...all("wow", "Nerys", "Dashiell"), ...all("laugh", "Thaddeus")],
    replies: [{ by: "Dashiell", body: "We did this in Amsterdam once. Once.", hoursAgo: 6 }],
  },
  {
    by: "Perpetua",
    topic: "home_life",
    scope: "global",
    title: "Houseplants that survive two people who both forget to water",
    body: "Snake plant, ZZ plant, pothos. Everything else we owned is a memory.",
    hoursAgo: 140,
    reactions: [...all("laugh", "Sorrel", "Indigo", "Clementine")],
    replies: [{ by: "Indigo", body: "Add a cast-iron plant. The name is accurate.", hoursAgo: 130 }],
  },
  {
    by: "Leocadia",
    topic: "career_money",
    scope: "global",
    title: "Both working from home: how do you split the space?",
    body: "One of us takes calls all day, the other needs silence. We ended up with a rota for the spare room and noise-cancelling headphones for whoever loses.",
    hoursAgo: 52,
    reactions: [...all("clap", "Silvanus", "Clementine")],
    replies: [{ by: "Silvanus", body: "The kitchen table is ours before noon, mine after. It works.", hoursAgo: 48 }],
  },
  {
    by: "Nephele",
    topic: "travel",
    scope: "global",
    title: "Tasmania road trip: ten days, one campervan",
    body: "Cradle Mountain, Freycinet, Bruny Island. Wombats everywhere. Drive less than you planned.",
    hoursAgo: 200,
    reactions: [...all("heart", "Perpetua", "Marisol"), ...all("wow", "Horatio")],
    replies: [],
  },
  {
    by: "Cordelia",
    topic: "food_drink",
    scope: "global",
    title: "A market breakfast in every city we visit",
    body: "It's our one travel ritual. Best so far: Mercado de San Miguel at opening time, and the Saturday market in Lyon.",
    hoursAgo: 160,
    reactions: [...all("heart", "Seraphina", "Marcellus")],
    replies: [{ by: "Seraphina", body: "Skip San Miguel next time and try La Boqueria's back stalls at 8.", hoursAgo: 150 }],
  },
  {
    by: "Indigo",
    topic: "meetups",
    scope: "global",
    title: "Online book club for couples: first pick inside",
    body: "One book a month, one video call on the last Sunday. First pick: a short novel both partners can finish in a month of busy evenings.",
    hoursAgo: 10,
    reactions: [...all("heart", "Nerys", "Leocadia", "Clementine")],
    replies: [{ by: "Clementine", body: "We're in. Nephele reads fast, I read slowly: it'll even out.", hoursAgo: 7 }],
  },
];
