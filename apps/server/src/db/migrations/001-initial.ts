import type { Kysely } from 'kysely';
import { choiceColumnType, withIdColumn, type DialectName } from '../dialect.js';

export function initial(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('countries')
        .addColumn('id', 'integer', (col) => col.primaryKey())
        .addColumn('code', 'text', (col) => col.notNull())
        .addColumn('name', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('categories')
        .addColumn('id', 'integer', (col) => col.primaryKey())
        .addColumn('name', 'text', (col) => col.notNull().unique())
        .execute();

      await withIdColumn(dialect, db.schema.createTable('users'))
        .addColumn('email', 'text', (col) => col.notNull().unique())
        .addColumn('password_hash', 'text', (col) => col.notNull())
        .addColumn('first_name', 'text', (col) => col.notNull())
        .addColumn('birthdate', 'text', (col) => col.notNull())
        .addColumn('birth_year', 'integer', (col) => col.notNull())
        .addColumn('gender', 'text', (col) => col.notNull())
        .addColumn('country_id', 'integer', (col) => col.notNull().references('countries.id'))
        .addColumn('favorite_category_id', 'integer', (col) => col.references('categories.id'))
        .addColumn('favorite_topic', 'text')
        .addColumn('notification', 'integer', (col) => col.notNull().defaultTo(1))
        .addColumn('question_count', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('answer_count', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('like_count', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('last_used_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('sessions_by_user').on('sessions').column('user_id').execute();

      await withIdColumn(dialect, db.schema.createTable('questions'))
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('type', 'text', (col) => col.notNull())
        .addColumn('title', 'text', (col) => col.notNull())
        .addColumn('category_id', 'integer', (col) => col.references('categories.id'))
        .addColumn('choice_labels', 'text')
        .addColumn('range_min', 'integer')
        .addColumn('range_max', 'integer')
        .addColumn('published_at', 'text', (col) => col.notNull())
        .addColumn('vote_count', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('like_count', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('questions_by_user').on('questions').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('questions_by_category').on('questions').columns(['category_id', 'id']).execute();
      await db.schema.createIndex('questions_by_published').on('questions').column('published_at').execute();

      await db.schema
        .createTable('question_tags')
        .addColumn('question_id', 'integer', (col) => col.notNull().references('questions.id').onDelete('cascade'))
        .addColumn('tag', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('question_tags_pk', ['question_id', 'tag'])
        .execute();
      await db.schema.createIndex('question_tags_by_tag').on('question_tags').columns(['tag', 'question_id']).execute();

      await withIdColumn(dialect, db.schema.createTable('votes'))
        .addColumn('question_id', 'integer', (col) => col.notNull().references('questions.id'))
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('choice', choiceColumnType, (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('votes_one_per_user', ['question_id', 'user_id'])
        .execute();
      await db.schema.createIndex('votes_by_user').on('votes').columns(['user_id', 'id']).execute();
      await db.schema
        .createIndex('votes_by_choice')
        .on('votes')
        .columns(['question_id', 'choice', 'user_id'])
        .execute();

      await db.schema
        .createTable('vote_tallies')
        .addColumn('question_id', 'integer', (col) => col.notNull())
        .addColumn('choice', choiceColumnType, (col) => col.notNull())
        .addColumn('count', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('vote_tallies_pk', ['question_id', 'choice'])
        .execute();

      await db.schema
        .createTable('vote_segments')
        .addColumn('question_id', 'integer', (col) => col.notNull())
        .addColumn('country_id', 'integer', (col) => col.notNull())
        .addColumn('gender', 'text', (col) => col.notNull())
        .addColumn('birth_year', 'integer', (col) => col.notNull())
        .addColumn('choice', choiceColumnType, (col) => col.notNull())
        .addColumn('count', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('vote_segments_pk', ['question_id', 'country_id', 'gender', 'birth_year', 'choice'])
        .execute();

      await db.schema
        .createTable('vote_age_segments')
        .addColumn('question_id', 'integer', (col) => col.notNull())
        .addColumn('gender', 'text', (col) => col.notNull())
        .addColumn('birth_year', 'integer', (col) => col.notNull())
        .addColumn('choice', choiceColumnType, (col) => col.notNull())
        .addColumn('count', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('vote_age_segments_pk', ['question_id', 'gender', 'birth_year', 'choice'])
        .execute();

      await withIdColumn(dialect, db.schema.createTable('likes'))
        .addColumn('question_id', 'integer', (col) => col.notNull().references('questions.id'))
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('likes_one_per_user', ['question_id', 'user_id'])
        .execute();
      await db.schema.createIndex('likes_by_user').on('likes').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('passes')
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('question_id', 'integer', (col) => col.notNull().references('questions.id'))
        .addPrimaryKeyConstraint('passes_pk', ['user_id', 'question_id'])
        .execute();

      await db.schema
        .createTable('follows')
        .addColumn('follower_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('followee_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'followee_id'])
        .execute();
      await db.schema.createIndex('follows_by_followee').on('follows').column('followee_id').execute();

      await db.schema
        .createTable('blocks')
        .addColumn('blocker_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('blocked_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('blocks_pk', ['blocker_id', 'blocked_id'])
        .execute();
      await db.schema.createIndex('blocks_by_blocked').on('blocks').column('blocked_id').execute();

      await db.schema
        .createTable('questions_of_the_day')
        .addColumn('day', 'text', (col) => col.primaryKey())
        .addColumn('question_id', 'integer', (col) => col.references('questions.id'))
        .execute();

      await withIdColumn(dialect, db.schema.createTable('quiz_items'))
        .addColumn('question_id', 'integer', (col) => col.notNull().references('questions.id'))
        .addColumn('answer', 'integer')
        .addColumn('strict', 'integer', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('daily_activity')
        .addColumn('day', 'text', (col) => col.primaryKey())
        .addColumn('answers', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('questions', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('users', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('likes', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    },
  };
}
