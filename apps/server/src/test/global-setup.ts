import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '../db/index.js';
import { seedReferenceData } from '../seed/reference.js';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase, testPostgresUrl } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated and seeded PostgreSQL database each test file copies, on a PostgreSQL run. */
    postgresTemplate: string | null;
  }
}

/** On a PostgreSQL run, migrates and seeds one database once, for every test file to copy. */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!testPostgresUrl) {
    project.provide('postgresTemplate', null);
    return undefined;
  }
  const serverUrl = testPostgresUrl;
  const template = await createPostgresDatabase(serverUrl, 'pollscope_template');
  try {
    const database = openDatabase(databaseUrlFor(serverUrl, template));
    try {
      await migrateToLatest(database);
      await seedReferenceData(database.db);
    } finally {
      await database.close();
    }
  } catch (error) {
    await dropPostgresDatabase(serverUrl, template);
    throw error;
  }
  project.provide('postgresTemplate', template);
  return () => dropPostgresDatabase(serverUrl, template);
}
