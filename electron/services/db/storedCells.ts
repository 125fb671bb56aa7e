import { z } from 'zod';
import { storedJson } from './storedJson.ts';

/** A stored row's cells (`cells` columns of contacts, suppression files, follow-up lists). */
export const cellsJson = storedJson(z.array(z.string()), 'row cells');
