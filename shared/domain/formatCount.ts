// Counts and credits in words meant for people (messages, labels, the CLI), in the OS locale:
// 40,807 (en-US), 40.807 (de-DE), 1,23,456 (en-IN). The back end's default locale is the OS's (Node
// reads it from the environment); the renderer formats its own figures the same way
// (renderer/src/components/format.ts), so a back-end message reads like the page around it.

const counts = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const amounts = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** A whole count: 40807 → "40,807" (OS locale). */
export const formatCount = (n: number): string => counts.format(n);

/** An amount that may have a fraction (credits): 40807.5 → "40,807.5" (OS locale, at most 2 decimals). */
export const formatAmount = (n: number): string => amounts.format(n);
