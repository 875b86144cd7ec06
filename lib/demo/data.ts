/**
 * Demo data for `npm run db:seed`: plain values only, so seed.ts reads as the steps it takes.
 * Couple types are the spec's (section 3); interests come from lib/interests/catalogue.ts.
 */
// Relative, not "@/": the browser tests import this file too.
import type { Interest } from "../interests/catalogue";
import { notifiedName } from "../forum/rules";
import { mention } from "../notifications/types/mention";
import { partnerJoined } from "../notifications/types/partner-joined";
import { reaction } from "../notifications/types/reaction";
import { reply } from "../notifications/types/reply";

export const DEMO_EMAIL_DOMAIN = "demo.couples.test";
/** One password for every demo account; it passes the registration rules (lib/auth/rules.ts). */
export const DEMO_PASSWORD = "Couples2026!";

/** The spec's adventure styles (couple types). */
export type CoupleType =
  "global_adventurers" | "culture_curators" | "mindful_adventurers" | "community_connectors" | "culinary_connoisseurs" | "career_climbers";

export type Place = {
  location: string;
  /** GeoNames ids: stable, offline, and no Google key needed for demo data. */
  placeId: string;
  city: string;
  state: string;
  country: string;
  countryCode: string;
  latitude: number;
  longitude: number;
};

const place = (
  city: string,
  state: string,
  country: string,
  countryCode: string,
  geonameId: number,
  latitude: number,
  longitude: number,
): Place => ({
  location: `${city}, ${country}`,
  placeId: `geonames:${geonameId}`,
  city,
  state,
  country,
  countryCode,
  latitude,
  longitude,
});

export const PLACES = {
  lisbon: place("Lisbon", "Lisbon", "Portugal", "PT", 2267057, 38.7223, -9.1393),
  london: place("London", "England", "United Kingdom", "GB", 2643743, 51.5074, -0.1278),
  berlin: place("Berlin", "Berlin", "Germany", "DE", 2950159, 52.52, 13.405),
  paris: place("Paris", "Île-de-France", "France", "FR", 2988507, 48.8566, 2.3522),
  barcelona: place("Barcelona", "Catalonia", "Spain", "ES", 3128760, 41.3874, 2.1686),
  amsterdam: place("Amsterdam", "North Holland", "Netherlands", "NL", 2759794, 52.3676, 4.9041),
  toronto: place("Toronto", "Ontario", "Canada", "CA", 6167865, 43.6532, -79.3832),
  melbourne: place("Melbourne", "Victoria", "Australia", "AU", 2158177, -37.8136, 144.9631),
  copenhagen: place("Copenhagen", "Capital Region", "Denmark", "DK", 2618425, 55.6761, 12.5683),
} satisfies Record<string, Place>;

export type DemoPerson = {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  occupation: string;
  bio: string;
  interests: Interest[];
};

export type DemoCouple = {
  place: Place;
  coupleTypes: CoupleType[];
  bio: string;
  /** Days since partner A finished setting up the couple. */
  completedDaysAgo: number;
  partnerA: DemoPerson;
  /** Partner B; `finished: false` means they accepted the invitation but have not set up their profile. */
  partnerB: DemoPerson & { finished: boolean };
  /** May draft paid events (`npm run couple:flag -- EMAIL can_create_paid_events`). */
  canCreatePaidEvents?: boolean;
};

/** Demo e-mail of a person: their first name, lower-cased. First names are unique below. */
export const demoEmail = (firstName: string) => `${firstName.toLowerCase()}@${DEMO_EMAIL_DOMAIN}`;

export const DEMO_COUPLES: DemoCouple[] = [
  {
    place: PLACES.lisbon,
    coupleTypes: ["global_adventurers", "culinary_connoisseurs"],
    bio: "We met on a night train to Porto and never really stopped travelling. Weekends are for surf lessons in Ericeira, tascas in Alfama and far too many pastéis de nata.",
    completedDaysAgo: 41,
    canCreatePaidEvents: true,
    partnerA: {
      firstName: "Marisol",
      lastName: "Ferreira",
      dateOfBirth: "1991-04-12",
      occupation: "UX researcher",
      bio: "Asks 'why?' for a living. Collects tile fragments and bad puns.",
      interests: ["travel", "food_dining", "photography", "arts_culture", "technology", "reading"],
    },
    partnerB: {
      firstName: "Thaddeus",
      lastName: "Brandt",
      dateOfBirth: "1989-09-03",
      occupation: "Marine biologist",
      bio: "Happiest in a wetsuit. Can name every fish at the Oceanário.",
      interests: ["outdoor_activities", "adventure_sports", "travel", "food_dining", "fitness_wellness"],
      finished: true,
    },
  },
  {
    place: PLACES.london,
    coupleTypes: ["culture_curators", "career_climbers"],
    bio: "Gallery openings on Thursdays, Sunday roasts with friends, and a shared spreadsheet of every theatre show we have seen since 2016.",
    completedDaysAgo: 33,
    partnerA: {
      firstName: "Perpetua",
      lastName: "Shah",
      dateOfBirth: "1988-02-27",
      occupation: "Architect",
      bio: "Designs libraries by day, redesigns our living room by night.",
      interests: ["arts_culture", "reading", "career_development", "home_entertaining", "photography"],
    },
    partnerB: {
      firstName: "Silvanus",
      lastName: "Okafor",
      dateOfBirth: "1987-11-14",
      occupation: "Sound engineer",
      bio: "Mixes records, bakes sourdough, always has a playlist ready.",
      interests: ["music", "arts_culture", "food_dining", "technology", "entrepreneurship"],
      finished: true,
    },
  },
  {
    place: PLACES.berlin,
    coupleTypes: ["mindful_adventurers", "community_connectors"],
    bio: "Cyclists, climbers and organisers of a monthly board-game night in Kreuzberg. Always up for a lake day and a long dinner afterwards.",
    completedDaysAgo: 27,
    partnerA: {
      firstName: "Leocadia",
      lastName: "Hoffmann",
      dateOfBirth: "1993-06-08",
      occupation: "Physiotherapist",
      bio: "Yoga teacher on weekends. Firm believer in stretching before bouldering.",
      interests: ["fitness_wellness", "outdoor_activities", "adventure_sports", "reading", "travel"],
    },
    partnerB: {
      firstName: "Jericho",
      lastName: "Weber",
      dateOfBirth: "1992-01-19",
      occupation: "Software engineer",
      bio: "Builds payment systems and wooden bikes, not at the same time.",
      interests: ["technology", "outdoor_activities", "investing", "music", "fitness_wellness"],
      finished: true,
    },
  },
  {
    place: PLACES.paris,
    coupleTypes: ["culinary_connoisseurs", "culture_curators"],
    bio: "Two food lovers who plan holidays around restaurants and vineyards. Ask us about the best natural wine bars in the 11th.",
    completedDaysAgo: 19,
    partnerA: {
      firstName: "Cordelia",
      lastName: "Laurent",
      dateOfBirth: "1990-03-30",
      occupation: "Sommelier",
      bio: "Opens bottles professionally and corks jokes recreationally.",
      interests: ["wine_tasting", "food_dining", "travel", "home_entertaining", "arts_culture"],
    },
    partnerB: {
      firstName: "Horatio",
      lastName: "Moreau",
      dateOfBirth: "1986-07-22",
      occupation: "Chef",
      bio: "Runs a twelve-seat bistro. Off-duty, still cooking for friends.",
      interests: ["food_dining", "wine_tasting", "entrepreneurship", "photography", "music"],
      finished: true,
    },
  },
  {
    place: PLACES.barcelona,
    coupleTypes: ["global_adventurers", "mindful_adventurers"],
    bio: "Sailing on Sundays, tapas on Fridays, and a running list of islands we still need to see. We love meeting couples who like the sea as much as we do.",
    completedDaysAgo: 14,
    partnerA: {
      firstName: "Seraphina",
      lastName: "Martínez",
      dateOfBirth: "1994-10-05",
      occupation: "Product manager",
      bio: "Plans product roadmaps and perfect road trips.",
      interests: ["travel", "adventure_sports", "career_development", "technology", "food_dining"],
    },
    partnerB: {
      firstName: "Marcellus",
      lastName: "Rossi",
      dateOfBirth: "1991-12-11",
      occupation: "Sailing instructor",
      bio: "Teaches kids and grown-ups to read the wind.",
      interests: ["outdoor_activities", "adventure_sports", "travel", "fitness_wellness", "photography"],
      finished: true,
    },
  },
  {
    place: PLACES.amsterdam,
    coupleTypes: ["community_connectors", "career_climbers"],
    bio: "Founders of a small design studio and a canal-side book club. We host dinners for new people in town every few weeks.",
    completedDaysAgo: 10,
    partnerA: {
      firstName: "Nerys",
      lastName: "Bakker",
      dateOfBirth: "1989-05-17",
      occupation: "Brand designer",
      bio: "Typography nerd. Will judge your menu font, kindly.",
      interests: ["arts_culture", "entrepreneurship", "reading", "home_entertaining", "photography"],
    },
    partnerB: {
      firstName: "Dashiell",
      lastName: "Visser",
      dateOfBirth: "1988-08-09",
      occupation: "Startup founder",
      bio: "Builds climate software. Cycles everywhere, obviously.",
      interests: ["entrepreneurship", "investing", "technology", "career_development", "outdoor_activities"],
      finished: true,
    },
  },
  {
    place: PLACES.toronto,
    coupleTypes: ["culture_curators", "community_connectors"],
    bio: "Film-festival regulars and amateur jazz fans. Winter means hockey games and hot chocolate; summer means island picnics.",
    completedDaysAgo: 6,
    partnerA: {
      firstName: "Indigo",
      lastName: "Kim",
      dateOfBirth: "1995-02-02",
      occupation: "Data analyst",
      bio: "Turns questions into charts and charts into arguments.",
      interests: ["technology", "music", "arts_culture", "investing", "reading"],
    },
    partnerB: {
      firstName: "Sorrel",
      lastName: "Reyes",
      dateOfBirth: "1993-04-25",
      occupation: "High-school teacher",
      bio: "Teaches history and plays saxophone badly but loudly.",
      interests: ["music", "reading", "home_entertaining", "arts_culture", "fitness_wellness"],
      finished: true,
    },
  },
  {
    place: PLACES.melbourne,
    coupleTypes: ["mindful_adventurers", "culinary_connoisseurs"],
    bio: "Coffee snobs, trail runners and proud owners of an over-ambitious veggie patch. Looking for couples to share long hikes and longer brunches.",
    completedDaysAgo: 3,
    partnerA: {
      firstName: "Nephele",
      lastName: "Clarke",
      dateOfBirth: "1990-09-28",
      occupation: "Veterinarian",
      bio: "Treats dogs, befriends their owners, runs ultramarathons.",
      interests: ["fitness_wellness", "outdoor_activities", "food_dining", "travel", "photography"],
    },
    partnerB: {
      firstName: "Clementine",
      lastName: "Nguyen",
      dateOfBirth: "1992-06-15",
      occupation: "Barista and roaster",
      bio: "Can tell a Kenyan from an Ethiopian bean blindfolded.",
      interests: ["food_dining", "entrepreneurship", "home_entertaining", "outdoor_activities", "wine_tasting"],
      finished: true,
    },
  },
  // Partner A finished; partner B accepted the invitation and still has to set up their profile.
  {
    place: PLACES.copenhagen,
    coupleTypes: ["global_adventurers", "community_connectors"],
    bio: "Just moved to Copenhagen and learning Danish one pastry at a time. Looking for couples who like harbour swims and cosy dinners.",
    completedDaysAgo: 1,
    partnerA: {
      firstName: "Eulalia",
      lastName: "Larsen",
      dateOfBirth: "1996-01-10",
      occupation: "Nurse",
      bio: "Night shifts, morning swims, afternoon naps.",
      interests: ["fitness_wellness", "travel", "food_dining", "reading", "outdoor_activities"],
    },
    partnerB: {
      firstName: "Lysander",
      lastName: "Andersen",
      dateOfBirth: "1994-08-30",
      // Not written while `finished` is false: only what accepting the invitation gives is seeded.
      occupation: "Game designer",
      bio: "Makes puzzle games; currently puzzling over Danish grammar.",
      interests: ["technology", "music", "travel", "reading", "outdoor_activities"],
      finished: false,
    },
  },
];

/** A verified account without a couple: signing in leads to onboarding. */
export const DEMO_SOLO = { firstName: "Rafferty", lastName: "Morgan", dateOfBirth: "1997-05-21" } as const;

export type DemoNotification = {
  type: "partner_joined" | "reply" | "mention" | "reaction";
  title: string;
  message: string;
  /** Who caused it, by first name; their couple is the actor couple. */
  actor: string;
  hoursAgo: number;
  read: boolean;
  /** Forum notifications point at a post (and a reply); the forum comes later, so the ids are fixed here. */
  postId?: string;
  replyId?: string;
};

/** Marisol's forum posts that the demo notifications are about. */
export const MARISOL_POSTS = [
  { id: "0887bce3-1c40-45b4-a47d-3f40f7c791f2", title: "Best surf spots near Lisbon for beginners?" },
  { id: "5ab103f6-c3bb-48e5-a262-1475a04b854d", title: "Tile-hunting walk through Alfama this Saturday" },
  { id: "c233ad13-b438-4f27-8004-6ae7f047eb41", title: "Favourite tascas that aren't on every list?" },
] as const;

/** Couples that liked Marisol's posts over the past weeks. */
const REACTORS = ["Perpetua", "Leocadia", "Cordelia", "Seraphina", "Nerys", "Indigo", "Nephele"];

/** A demo couple's name, as the seed stores it. */
export const demoCoupleName = (couple: Pick<DemoCouple, "partnerA" | "partnerB">) =>
  `${couple.partnerA.firstName} & ${couple.partnerB.firstName}`;

const coupleOf = (firstName: string) =>
  DEMO_COUPLES.find((couple) => couple.partnerA.firstName === firstName || couple.partnerB.firstName === firstName)!;
const RECIPIENT = "Marisol";
/** The actor as the recipient knows them, in the real notifications' words (lib/forum/rules). */
const who = (actor: string) =>
  notifiedName({ firstName: actor, coupleName: demoCoupleName(coupleOf(actor)) }, coupleOf(actor) === coupleOf(RECIPIENT));

/**
 * What the first couple's partner A finds under the bell: three new notifications (her partner
 * joining among them) and a few weeks of read reactions, enough for two pages of 20. Titles and
 * messages use the real notifications' wording.
 */
export const DEMO_INBOX: { recipient: string; notifications: DemoNotification[] } = {
  recipient: RECIPIENT,
  notifications: [
    {
      type: "partner_joined",
      ...partnerJoined.text.notice(coupleOf("Thaddeus").partnerB, demoCoupleName(coupleOf("Thaddeus"))),
      actor: "Thaddeus",
      hoursAgo: 2,
      read: false,
    },
    {
      type: "reply",
      title: reply.text.toPost(who("Perpetua")),
      message: "“Try O Trevo for bifanas, and go early: by noon the queue is the whole street.”",
      actor: "Perpetua",
      hoursAgo: 5,
      read: false,
      postId: MARISOL_POSTS[2].id,
      replyId: "87e0b450-3c88-4638-9c41-51b7599225c8",
    },
    {
      type: "mention",
      title: mention.text.title(who("Cordelia")),
      message: "“@Marisol we're in Lisbon in May: can we join the tile walk?”",
      actor: "Cordelia",
      hoursAgo: 26,
      read: false,
      postId: MARISOL_POSTS[1].id,
      replyId: "1231e1d6-e910-4ac0-be05-76612c13206e",
    },
    {
      type: "reply",
      title: reply.text.toPost(who("Jericho")),
      message: "“Carcavelos on a small day is perfect for a first lesson. Bring a 4/3 wetsuit.”",
      actor: "Jericho",
      hoursAgo: 50,
      read: true,
      postId: MARISOL_POSTS[0].id,
      replyId: "a472edf6-434c-44e6-b950-3ec497fccd6e",
    },
    ...MARISOL_POSTS.flatMap((post, p) =>
      REACTORS.map((actor, r): DemoNotification => ({
        type: "reaction",
        title: reaction.text.title(demoCoupleName(coupleOf(actor)), 0, "post"),
        // A reaction's message quotes what was reacted to: a post's title.
        message: post.title,
        actor,
        hoursAgo: 72 + (p * REACTORS.length + r) * 36,
        read: true,
        postId: post.id,
      })),
    ),
  ],
};

/* ---------- The directory's neighbourhood ---------- */

/** Towns around the demo cities, so a Lisbon couple has neighbours within 10, 50 and 200 km. */
const town = (city: string, state: string, country: string, countryCode: string, latitude: number, longitude: number): Place => ({
  location: `${city}, ${country}`,
  placeId: `seed:${city.toLowerCase().replace(/[^a-z]+/g, "-")}`,
  city,
  state,
  country,
  countryCode,
  latitude,
  longitude,
});

const DIRECTORY_TOWNS: Place[] = [
  PLACES.lisbon,
  town("Almada", "Setúbal", "Portugal", "PT", 38.6791, -9.1569),
  town("Oeiras", "Lisbon", "Portugal", "PT", 38.691, -9.3107),
  town("Sintra", "Lisbon", "Portugal", "PT", 38.8029, -9.3817),
  town("Cascais", "Lisbon", "Portugal", "PT", 38.6979, -9.4215),
  town("Setúbal", "Setúbal", "Portugal", "PT", 38.5244, -8.8882),
  town("Évora", "Évora", "Portugal", "PT", 38.5714, -7.9135),
  town("Coimbra", "Coimbra", "Portugal", "PT", 40.2033, -8.4103),
  town("Porto", "Porto", "Portugal", "PT", 41.1579, -8.6291),
  PLACES.london,
  town("Brighton", "England", "United Kingdom", "GB", 50.8225, -0.1372),
  PLACES.berlin,
  town("Potsdam", "Brandenburg", "Germany", "DE", 52.3906, 13.0645),
  PLACES.paris,
  PLACES.barcelona,
  town("Madrid", "Community of Madrid", "Spain", "ES", 40.4168, -3.7038),
];

const DIRECTORY_NAMES: [string, string][] = [
  ["Ines", "Rafael"],
  ["Beatriz", "Tomas"],
  ["Carla", "Duarte"],
  ["Leonor", "Miguel"],
  ["Sofia", "Goncalo"],
  ["Marta", "Nuno"],
  ["Rita", "Pedro"],
  ["Joana", "Andre"],
  ["Clara", "Vasco"],
  ["Helena", "Bruno"],
  ["Alice", "Henrique"],
  ["Lara", "Diogo"],
  ["Eva", "Simao"],
  ["Matilde", "Rodrigo"],
  ["Olivia", "Harry"],
  ["Amelia", "Jack"],
  ["Isla", "George"],
  ["Freya", "Oscar"],
  ["Hanna", "Lukas"],
  ["Lena", "Felix"],
  ["Mila", "Jonas"],
  ["Emma", "Louis"],
  ["Chloe", "Hugo"],
  ["Lucia", "Pablo"],
  ["Paula", "Javier"],
  ["Nuria", "Marc"],
  ["Elena", "Sergio"],
  ["Teresa", "Afonso"],
  ["Vera", "Joao"],
  ["Irene", "Gil"],
  ["Nadia", "Omar"],
  ["Zoe", "Samir"],
  ["Ana", "Kai"],
  ["Julia", "Noah"],
  ["Mariana", "Luca"],
  ["Sara", "Elias"],
];

const INTEREST_POOL: Interest[] = [
  "travel",
  "food_dining",
  "photography",
  "arts_culture",
  "reading",
  "hiking",
  "wine_tasting",
  "cooking",
  "outdoor_activities",
  "music",
  "live_music",
  "cycling",
  "board_games",
  "gardening",
  "sailing",
  "fitness_wellness",
];
const STYLE_POOL: CoupleType[] = [
  "global_adventurers",
  "culture_curators",
  "mindful_adventurers",
  "community_connectors",
  "culinary_connoisseurs",
  "career_climbers",
];
const OCCUPATIONS = [
  "Teacher",
  "Nurse",
  "Software developer",
  "Chef",
  "Architect",
  "Translator",
  "Pharmacist",
  "Illustrator",
  "Engineer",
  "Journalist",
  "Physiotherapist",
  "Florist",
];
/** Mostly city level; some exact, region, country or hidden, so every privacy level shows. */
const LEVELS = ["city", "city", "city", "full", "city", "region", "city", "country", "city", "hidden", "city", "city"] as const;

export type DirectoryCouple = {
  partnerA: { firstName: string; lastName: string; dateOfBirth: string; occupation: string; interests: Interest[] };
  partnerB: { firstName: string; lastName: string; dateOfBirth: string; occupation: string; interests: Interest[] };
  place: Place;
  privacyLevel: (typeof LEVELS)[number];
  coupleTypes: CoupleType[];
  bio: string;
  verified: boolean;
  /** Days since the couple joined: the directory's "newest" order. */
  joinedDaysAgo: number;
};

/** Deterministic picks (no Math.random), so a re-seed writes the same couples. */
const pick = <T>(list: readonly T[], i: number, count: number, step: number): T[] => [
  ...new Set(Array.from({ length: count }, (_, k) => list[(i * step + k * (step + 2)) % list.length]!)),
];

/** A few dozen more couples around several cities with overlapping interests: a directory worth browsing. */
export const DIRECTORY_COUPLES: DirectoryCouple[] = DIRECTORY_NAMES.map(([a, b], i) => {
  const place = DIRECTORY_TOWNS[i % DIRECTORY_TOWNS.length]!;
  return {
    partnerA: {
      firstName: a,
      lastName: "Silva",
      dateOfBirth: `${1982 + (i % 12)}-0${1 + (i % 9)}-1${i % 10}`,
      occupation: OCCUPATIONS[i % OCCUPATIONS.length]!,
      interests: pick(INTEREST_POOL, i, 4 + (i % 3), 3),
    },
    partnerB: {
      firstName: b,
      lastName: "Costa",
      dateOfBirth: `${1980 + (i % 14)}-1${i % 3}-0${1 + (i % 9)}`,
      occupation: OCCUPATIONS[(i + 5) % OCCUPATIONS.length]!,
      interests: pick(INTEREST_POOL, i + 1, 3 + (i % 4), 5),
    },
    place,
    privacyLevel: LEVELS[i % LEVELS.length]!,
    coupleTypes: pick(STYLE_POOL, i, 1 + (i % 3), 1),
    bio: `${a} and ${b} from ${place.city}: weekends are for ${pick(INTEREST_POOL, i, 2, 3).join(" and ").replace(/_/g, " ")}, and we are always up for meeting new couples.`,
    verified: i % 3 !== 2,
    joinedDaysAgo: 1 + ((i * 7) % 90),
  };
});

/** The directory couples' e-mails: first names repeat across couples elsewhere, so these carry a prefix. */
export const directoryEmail = (firstName: string) => `dir.${firstName.toLowerCase()}@${DEMO_EMAIL_DOMAIN}`;
