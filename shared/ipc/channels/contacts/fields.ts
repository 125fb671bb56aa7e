import { z } from 'zod';

// Field schemas the contacts channels share (ids, counts, a cell, a country).

export const listId = z.number().int().positive();
export const rowNumber = z.number().int().positive();
export const importId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'not an import id');
export const cellText = z.string().max(100_000);
export const country = z.string().trim().min(1, 'Choose a default country').max(8);
export const variableName = z.string().trim().min(1, 'A variable needs a name').max(100);
export const count = z.number().int().nonnegative();
/** How a detected setting was found (byte-order mark, sniffed, default, the operator's choice). */
export const sourceSchema = z.enum(['bom', 'detected', 'default', 'override']);
