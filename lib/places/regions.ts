/**
 * Region (admin1) names for the countries whose GeoNames admin1 codes are readable: the US
 * (postal codes) and the UK (home nations). The package ships only the codes, and no MIT/CC-BY
 * npm package maps GeoNames admin1 codes to names, so elsewhere the region stays null.
 */
const REGIONS: Record<string, Record<string, string>> = {
  US: {
    AL: "Alabama",
    AK: "Alaska",
    AZ: "Arizona",
    AR: "Arkansas",
    CA: "California",
    CO: "Colorado",
    CT: "Connecticut",
    DE: "Delaware",
    DC: "District of Columbia",
    FL: "Florida",
    GA: "Georgia",
    HI: "Hawaii",
    ID: "Idaho",
    IL: "Illinois",
    IN: "Indiana",
    IA: "Iowa",
    KS: "Kansas",
    KY: "Kentucky",
    LA: "Louisiana",
    ME: "Maine",
    MD: "Maryland",
    MA: "Massachusetts",
    MI: "Michigan",
    MN: "Minnesota",
    MS: "Mississippi",
    MO: "Missouri",
    MT: "Montana",
    NE: "Nebraska",
    NV: "Nevada",
    NH: "New Hampshire",
    NJ: "New Jersey",
    NM: "New Mexico",
    NY: "New York",
    NC: "North Carolina",
    ND: "North Dakota",
    OH: "Ohio",
    OK: "Oklahoma",
    OR: "Oregon",
    PA: "Pennsylvania",
    RI: "Rhode Island",
    SC: "South Carolina",
    SD: "South Dakota",
    TN: "Tennessee",
    TX: "Texas",
    UT: "Utah",
    VT: "Vermont",
    VA: "Virginia",
    WA: "Washington",
    WV: "West Virginia",
    WI: "Wisconsin",
    WY: "Wyoming",
  },
  GB: { ENG: "England", SCT: "Scotland", WLS: "Wales", NIR: "Northern Ireland" },
};

export const regionName = (countryCode: string, admin1: string): string | null => REGIONS[countryCode]?.[admin1] ?? null;

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });

/** English country name from the ISO code; the code itself if ICU does not know it. */
export function countryName(countryCode: string): string {
  try {
    return countryNames.of(countryCode) ?? countryCode;
  } catch {
    return countryCode;
  }
}
