/**
 * The site's design tokens shared by the stylesheet and the colour maths: the page and card backgrounds of
 * each colour scheme, against which course colours are made readable.
 */
/** The light scheme's page (`bg`) and card (`surface`) backgrounds. */
export const LIGHT = { bg: '#f6f5f1', surface: '#ffffff' } as const;
/** The dark scheme's page (`bg`) and card (`surface`) backgrounds. */
export const DARK = { bg: '#121418', surface: '#1b1f26' } as const;
