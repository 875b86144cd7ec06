import { describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { accountColumns, detailsColumns, partnerColumns, publicPersonColumns, selfColumns } from "@/lib/users/projections";

const SECRET = ["passwordHash", "latitude", "longitude", "registrationType"];
const keys = (columns: object) => Object.keys(columns).sort();

describe("user projections", () => {
  it("never select a secret or the exact coordinates", () => {
    for (const columns of [
      publicPersonColumns(users),
      detailsColumns(users),
      accountColumns(users),
      partnerColumns(users),
      selfColumns(users),
    ]) {
      expect(keys(columns).filter((key) => SECRET.includes(key))).toEqual([]);
    }
  });

  it("show another couple's partner by first name and age only: no last name, no e-mail", () => {
    expect(keys(publicPersonColumns(users))).toEqual(["avatarUrl", "dateOfBirth", "firstName", "id", "occupation"]);
  });

  it("show a partner everything public plus their names, interests and place, never their e-mail", () => {
    const partner = keys(partnerColumns(users));
    expect(partner).toEqual(expect.arrayContaining([...keys(publicPersonColumns(users)), "lastName", "interests", "location", "city"]));
    expect(partner).not.toContain("email");
    expect(partner).not.toContain("emailVerifiedAt");
  });

  it("show a person all of their partner view plus their e-mail, sign-in state and bio", () => {
    expect(keys(selfColumns(users))).toEqual([...keys(partnerColumns(users)), "bio", "email", "emailVerifiedAt"].sort());
  });
});
