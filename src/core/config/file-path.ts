import { z } from 'zod';

/**
 * JSON Schema `format` of a run config field that names a file or folder on the machine that
 * runs it. The web app reads it from a kind's schema: a page may name only files in the folders
 * the server offers, so a launch cannot read the server's other files.
 */
export const FILE_PATH_FORMAT = 'paideia-path';

/** A config field that names a file or folder (relative to the working folder, or absolute). */
export const filePath = () => z.string().min(1).meta({ format: FILE_PATH_FORMAT });
