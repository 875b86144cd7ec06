import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CONTROL_CHARACTER } from "@/lib/fields";
import { PASSWORD_REQUIREMENTS, ageOn, isAdult, latestAdultBirthDate, passwordStrength } from "@/lib/auth/rules";
import { dateOfBirthSchema, emailSchema, nameSchema, registrationPasswordSchema, resetPasswordSchema } from "@/lib/auth/schemas";

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe("registration password", () => {
  it.each([
    ["", "Password must be at least 8 characters"],
    ["Ab1!", "Password must be at least 8 characters"],
    ["abcdefg1!", "Password must contain at least one uppercase letter"],
    ["ABCDEFG1!", "Password must contain at least one lowercase letter"],
    ["Abcdefgh!", "Password must contain at least one number"],
    ["Abcdefgh1", "Password must contain at least one special character"],
  ])("refuses %j with the first unmet rule only: %s", (password, message) => {
    expect(messages(registrationPasswordSchema.safeParse(password))).toEqual([message]);
  });

  it("checks the rules in the spec's order: length, uppercase, lowercase, number, special character", () => {
    expect(PASSWORD_REQUIREMENTS.map((r) => r.message)).toEqual([
      "Password must be at least 8 characters",
      "Password must contain at least one uppercase letter",
      "Password must contain at least one lowercase letter",
      "Password must contain at least one number",
      "Password must contain at least one special character",
    ]);
    // Failing every rule at once still names the length first.
    expect(messages(registrationPasswordSchema.safeParse("   "))).toEqual(["Password must be at least 8 characters"]);
  });

  it.each([...`!@#$%^&*(),.?":{}|<>`])("accepts the special character %s", (special) => {
    expect(registrationPasswordSchema.safeParse(`Abcdefg1${special}`).success).toBe(true);
  });

  it("does not count a character outside the spec's special set (e.g. '-' or '_') as special", () => {
    expect(messages(registrationPasswordSchema.safeParse("Abcdefg1-_"))).toEqual(["Password must contain at least one special character"]);
  });

  it("accepts a password meeting every rule, unchanged (no trimming)", () => {
    expect(registrationPasswordSchema.parse(" Abcdefg1! ")).toBe(" Abcdefg1! ");
  });

  it("refuses a non-string with the length message", () => {
    expect(messages(registrationPasswordSchema.safeParse(undefined))).toEqual(["Password must be at least 8 characters"]);
  });
});

describe("passwordStrength", () => {
  it("says Too Short below 8 characters, even when every other rule is met", () => {
    expect(passwordStrength("")).toBe("Too Short");
    expect(passwordStrength("Ab1!xyz")).toBe("Too Short");
  });

  it("says Weak at 8 or more characters when a rule is unmet", () => {
    expect(passwordStrength("abcdefgh")).toBe("Weak");
    expect(passwordStrength("Abcdefgh1")).toBe("Weak");
  });

  it("says Strong when every rule is met", () => {
    expect(passwordStrength("Abcdefg1!")).toBe("Strong");
  });
});

describe("resetPasswordSchema", () => {
  it("refuses 5 characters with the reset message and accepts 6 of any kind", () => {
    expect(messages(resetPasswordSchema.safeParse("12345"))).toEqual(["Password must be at least 6 characters long."]);
    expect(resetPasswordSchema.safeParse("123456").success).toBe(true);
  });
});

describe("emailSchema", () => {
  it("trims and lower-cases a valid address", () => {
    expect(emailSchema.parse("  Marisol.Okafor@Example.COM ")).toBe("marisol.okafor@example.com");
  });

  it.each(["", "marisol", "marisol@example", "@example.com", "marisol@.com", "ma ya@example.com", "marisol@exa mple.com"])(
    "refuses %j with 'Please enter a valid email address'",
    (email) => {
      expect(messages(emailSchema.safeParse(email))).toContain("Please enter a valid email address");
    },
  );

  it("refuses a non-string with the same message", () => {
    expect(messages(emailSchema.safeParse(42))).toEqual(["Please enter a valid email address"]);
  });

  it("accepts sub-domains and refuses empty labels", () => {
    expect(emailSchema.parse("ada@mail.example.co.uk")).toBe("ada@mail.example.co.uk");
    for (const email of ["ada@example..com", "ada@example.com.", "ada@.example.com", "a@b@c.com"]) {
      expect(messages(emailSchema.safeParse(email))).toEqual(["Please enter a valid email address"]);
    }
  });

  it("stops at the length issue: an over-long address never reaches the trim or the pattern", () => {
    // The probe's body: "a@", dots, "@" backtracked quadratically in the old pattern.
    const hostile = `a@${".".repeat(40_000)}@`;
    const result = emailSchema.safeParse(hostile);
    expect(result.error?.issues.map((issue) => issue.code)).toEqual(["too_big"]);
  });
});

describe("nameSchema", () => {
  it("requires a first name, blank counting as empty", () => {
    expect(messages(nameSchema("First name").safeParse(""))).toEqual(["First name is required"]);
    expect(messages(nameSchema("First name").safeParse("   "))).toEqual(["First name is required"]);
    expect(messages(nameSchema("First name").safeParse(undefined))).toEqual(["First name is required"]);
  });

  it("accepts 50 characters and refuses 51 with the field's own message", () => {
    expect(nameSchema("Last name").parse("x".repeat(50))).toBe("x".repeat(50));
    expect(messages(nameSchema("Last name").safeParse("x".repeat(51)))).toEqual(["Last name must be no more than 50 characters"]);
    expect(messages(nameSchema("First name").safeParse("x".repeat(51)))).toEqual(["First name must be no more than 50 characters"]);
  });

  it("trims before measuring and returns the trimmed name", () => {
    expect(nameSchema("First name").parse("  Marisol  ")).toBe("Marisol");
    expect(nameSchema("First name").parse(`  ${"x".repeat(50)}  `)).toBe("x".repeat(50));
  });
});

describe("CONTROL_CHARACTER (the one rule for names and one-line texts)", () => {
  it("finds line breaks of every kind, tabs and NUL, and nothing in ordinary text", () => {
    for (const text of ["a\nb", "a\rb", "a\tb", "a\u0000b", "a\u007fb", "a\u2028b", "a\u2029b"])
      expect(CONTROL_CHARACTER.test(text)).toBe(true);
    for (const text of ["Marisol & Thaddeus", "José-María O'Neil", "李 小龍", "🙂"]) expect(CONTROL_CHARACTER.test(text)).toBe(false);
  });
});

describe("latestAdultBirthDate", () => {
  it("is the same calendar day 18 years earlier", () => {
    expect(latestAdultBirthDate("2025-06-15")).toBe("2007-06-15");
    expect(latestAdultBirthDate("2025-01-01")).toBe("2007-01-01");
    expect(latestAdultBirthDate("2025-12-31")).toBe("2007-12-31");
  });

  it("turns 29 February of a leap year into 28 February, not 1 March", () => {
    expect(latestAdultBirthDate("2024-02-29")).toBe("2006-02-28");
  });

  it("keeps 28 February and 1 March as they are", () => {
    // 18 is not a multiple of 4, so 29 February never maps onto another 29 February.
    expect(latestAdultBirthDate("2018-02-28")).toBe("2000-02-28");
    expect(latestAdultBirthDate("2018-03-01")).toBe("2000-03-01");
    expect(latestAdultBirthDate("2024-03-01")).toBe("2006-03-01");
  });

  it("defaults to today where the day begins first (UTC+14), so no birthday east of UTC is refused", () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date("2030-07-04T09:59:00Z"));
      expect(latestAdultBirthDate()).toBe("2012-07-04");
      // 10:00 UTC is midnight in Kiritimati: 5 July has begun there, and at 08:00 in Sydney.
      vi.setSystemTime(new Date("2030-07-04T10:00:00Z"));
      expect(latestAdultBirthDate()).toBe("2012-07-05");
      expect(isAdult("2012-07-05")).toBe(true);
      expect(isAdult("2012-07-06")).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("isAdult", () => {
  it("accepts someone who turns 18 today and refuses someone who turns 18 tomorrow", () => {
    expect(isAdult("2007-06-15", "2025-06-15")).toBe(true);
    expect(isAdult("2007-06-16", "2025-06-15")).toBe(false);
    expect(isAdult("1990-01-01", "2025-06-15")).toBe(true);
  });

  it("treats someone born on 29 February as 18 on 1 March of a non-leap year, not on 28 February", () => {
    expect(isAdult("2000-02-29", "2018-02-28")).toBe(false);
    expect(isAdult("2000-02-29", "2018-03-01")).toBe(true);
  });

  it("refuses dates that do not exist or are not YYYY-MM-DD", () => {
    expect(isAdult("2001-02-30", "2025-06-15")).toBe(false);
    expect(isAdult("1990-13-01", "2025-06-15")).toBe(false);
    expect(isAdult("01/02/1990", "2025-06-15")).toBe(false);
    expect(isAdult("", "2025-06-15")).toBe(false);
  });

  it("refuses birth dates before 1900", () => {
    expect(isAdult("1899-12-31", "2025-06-15")).toBe(false);
    expect(isAdult("1900-01-01", "2025-06-15")).toBe(true);
  });
});

describe("dateOfBirthSchema", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // 09:00 UTC: still 15 June where the day begins first (UTC+14).
    vi.setSystemTime(new Date("2025-06-15T09:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  // Forms and the API show the first message of a field (fieldErrors, the zod resolver).
  it("requires a date of birth", () => {
    expect(messages(dateOfBirthSchema.safeParse(""))[0]).toBe("Please enter your date of birth");
    expect(messages(dateOfBirthSchema.safeParse("  "))[0]).toBe("Please enter your date of birth");
    expect(messages(dateOfBirthSchema.safeParse(undefined))).toEqual(["Please enter your date of birth"]);
  });

  it.each(["2001-02-30", "2001-02-29", "2001-04-31", "2001-00-10", "2001-1-5", "yesterday"])(
    "refuses the impossible date %j as invalid",
    (value) => {
      expect(messages(dateOfBirthSchema.safeParse(value))[0]).toBe("Please enter a valid date");
    },
  );

  it("accepts a real leap day", () => {
    expect(dateOfBirthSchema.parse("2000-02-29")).toBe("2000-02-29");
  });

  it("refuses a minor with 'You must be at least 18 years old' and accepts someone turning 18 today", () => {
    expect(messages(dateOfBirthSchema.safeParse("2007-06-16"))).toEqual(["You must be at least 18 years old"]);
    expect(dateOfBirthSchema.parse("2007-06-15")).toBe("2007-06-15");
  });
});

describe("ageOn", () => {
  it("counts whole years, the birthday itself included", () => {
    expect(ageOn("1990-05-17", "2025-05-16")).toBe(34);
    expect(ageOn("1990-05-17", "2025-05-17")).toBe(35);
    expect(ageOn("1990-05-17", "2025-12-31")).toBe(35);
    expect(ageOn("1990-12-31", "2025-01-01")).toBe(34);
  });

  it("agrees with isAdult at the 18th birthday", () => {
    expect(ageOn("2007-06-15", "2025-06-15")).toBe(18);
    expect(ageOn("2007-06-16", "2025-06-15")).toBe(17);
    expect(ageOn("2000-02-29", "2018-02-28")).toBe(17);
    expect(ageOn("2000-02-29", "2018-03-01")).toBe(18);
  });
});
