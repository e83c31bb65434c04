// One check for "an http(s) address", shared by option values and user settings. zod's URL parser,
// so the package needs neither the DOM's nor Node's URL type.
import { z } from 'zod';

const httpUrl = z.url({ protocol: /^https?$/ });

export const isHttpUrl = (text: string): boolean => httpUrl.safeParse(text).success;
