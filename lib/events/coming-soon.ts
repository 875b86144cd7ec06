/**
 * The events pages' 'coming soon' message, which the navigation's IRL modal shows too: a module of
 * its own, so every page's navigation ships these two lines and not the event draft's rules.
 */
export const EVENTS_COMING_SOON_TITLE = "IRL Events Coming Soon!";
export const EVENTS_COMING_SOON_TEXT = "Meet other couples in real life. We are putting the finishing touches on events near you.";
