/**
 * The sections of /settings, in the order the section navigation and the overview
 * list them. Each is its own page, saved on its own. Pure and browser-safe.
 */
export type SettingsSection = { href: string; label: string; summary: string };

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { href: "/settings/profile", label: "Your profile", summary: "Your name, occupation, interests and profile photo." },
  {
    href: "/settings/verification",
    label: "Photo verification",
    summary: "Verify your photo with a posed selfie, for the 'Photo verified' badge.",
  },
  { href: "/settings/couple", label: "Couple profile", summary: "Your couple name, bio, adventure styles and photos." },
  {
    href: "/settings/location",
    label: "Location and privacy",
    summary: "Your place, how precisely others see it, and whether you appear in the directory.",
  },
  { href: "/settings/appearance", label: "Appearance", summary: "Light, dark or your device's theme." },
  {
    href: "/settings/notifications",
    label: "Notifications",
    summary: "Which notifications reach you in the app, by e-mail and on your devices.",
  },
  { href: "/settings/security", label: "Security", summary: "Your password, e-mail address and signed-in devices." },
  { href: "/settings/partner", label: "Partner", summary: "Your partner, or your invitation to them." },
  { href: "/settings/messages", label: "Messages", summary: "Whether both of you approve a couple before a conversation opens." },
  { href: "/settings/blocked", label: "Blocked couples", summary: "Couples you blocked, and unblocking them." },
  { href: "/settings/data", label: "Your data", summary: "Download everything we store about you, or delete your account." },
];

/** The section a path belongs to (the path itself or a page below it), if any. */
export function currentSection(pathname: string): SettingsSection | undefined {
  return SETTINGS_SECTIONS.find((section) => pathname === section.href || pathname.startsWith(`${section.href}/`));
}
