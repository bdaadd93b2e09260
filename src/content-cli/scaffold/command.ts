/**
 * The `new` command of `syllabus-content`: its sub-commands, options, help and exit statuses
 * (0 written, 1 refused because of the content, 2 usage error; {@link NEW_EXIT}).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { choiceOption } from '../choices.js';
import { ContentFolder, NEW_EXIT, ScaffoldError } from './folder.js';
import {
  CHANGE_KINDS,
  STAGES,
  newChangelog,
  newClass,
  newCourse,
  newLesson,
  newRoadmap,
  type NewChangelog,
  type NewClass,
  type NewCourse,
  type NewLesson,
  type NewRoadmap,
  type ScaffoldResult,
} from './scaffold.js';

/** Where the command writes and what it reads; the shape of `syllabus-content`'s own I/O. */
export interface NewIo {
  stdout(line: string): void;
  stderr(line: string): void;
  cwd: string;
}

/** Examples for `new --help`, with ids of the bundled content/ (a test runs them against a copy of it). */
export const NEW_EXAMPLES: readonly string[] = [
  'syllabus-content new lesson python-foundations/basics "Booleans and comparisons"',
  'syllabus-content new lesson sql-for-analysts/querying "Filtering with LIKE" --id sql-like',
  'syllabus-content new class the-shell "Processes and signals" --soon "Background jobs" --soon "kill and trap"',
  'syllabus-content new course "Go for backend developers" --color "#00add8" --tagline "Small services, fast."',
  'syllabus-content new changelog "New lesson: Booleans" --kind lesson --blurb "Compare values and combine conditions."',
  'syllabus-content new roadmap "Go course" --stage next --theme Courses --body "A course on Go services."',
];

/**
 * Adds `new <kind> …` to `program`. Each sub-command reports its exit status through `done`.
 * @param now the clock that dates changelog entries (UTC)
 */
export function addNewCommand(program: Command, io: NewIo, done: (status: number) => void, now: () => Date = () => new Date()): void {
  const group = program
    .command('new')
    .description('start a new content file, with its id, order and date derived; prints the paths written')
    .addHelpText(
      'after',
      [
        '',
        'Each file is written only when the content folder it makes validates, never over an existing file;',
        "the parent's list (a class's lessons, a course's classes, catalog.md's courses) gets the new id at its end.",
        'Exit status: 0 written, 1 refused (the id is taken, the file exists, the content has problems), 2 usage error.',
        '',
        'Examples:',
        ...NEW_EXAMPLES.map((e) => `  ${e}`),
      ].join('\n'),
    );
  const run = (cmd: Command, task: (folder: ContentFolder) => Promise<ScaffoldResult>): void => {
    cmd.action(async () => {
      done(await execute(io, cmd.opts<{ dir: string }>().dir, task));
    });
  };

  const lesson = sub(group, 'lesson', "a lesson, appended to its class's lessons")
    .argument('<course/class>', 'the class, such as python-foundations/basics')
    .argument('<title>', "the lesson's title; the id is made from it")
    .option('--id <id>', 'the lesson id (unique across the catalog) instead of one made from the title')
    .option('--lang <lang>', "the language it teaches in (default: the one of the class's other lessons)")
    .option('--blurb <text>', 'a short description')
    .option('--live', 'in a soon class: make the class (and a soon course) live with this lesson');
  run(lesson, (folder) => {
    const [parent, title] = lesson.processedArgs as [string, string];
    return newLesson(folder, { ...lesson.opts<Omit<NewLesson, 'parent' | 'title'>>(), parent, title });
  });

  const klass = sub(group, 'class', "a class (soon, no lessons yet), appended to its course's classes")
    .argument('<course>', 'the course, such as python-foundations')
    .argument('<name>', "the class's name; the id is made from it")
    .option('--id <id>', 'the class id instead of one made from the name')
    .option('--blurb <text>', 'a short description')
    .option('--soon <topic>', 'a topic announced for the class (repeat for more)', (topic: string, topics: string[]) => [...topics, topic], []);
  run(klass, (folder) => {
    const [course, name] = klass.processedArgs as [string, string];
    return newClass(folder, { ...klass.opts<Omit<NewClass, 'course' | 'name'>>(), course, name });
  });

  const course = sub(group, 'course', "a course (soon, no classes yet), appended to catalog.md's courses")
    .argument('<title>', "the course's title; the id is made from it")
    .option('--id <id>', 'the course id instead of one made from the title')
    .option('--color <#rrggbb>', 'its colour (default: one derived from the id)')
    .option('--tagline <text>', 'one line under the title')
    .option('--blurb <text>', 'a short description');
  run(course, (folder) => newCourse(folder, { ...course.opts<Omit<NewCourse, 'title'>>(), title: course.processedArgs[0] as string }));

  const changelog = sub(group, 'changelog', 'a changelog entry changelog/<slug>-<date>.md')
    .argument('<title>', "the entry's title; the slug is made from it")
    .addOption(choiceOption('--kind <kind>', 'what it announces', CHANGE_KINDS).makeOptionMandatory())
    .requiredOption('--blurb <text>', 'the summary shown in the changelog and the feed')
    .option('--body <paragraph>', "the entry's one paragraph of Markdown (default: the blurb)")
    .option('--date <YYYY-MM-DD>', 'its date (default: today, UTC)')
    .option('--slug <slug>', 'the start of the id instead of one made from the title');
  run(changelog, (folder) =>
    newChangelog(folder, { ...changelog.opts<Omit<NewChangelog, 'title'>>(), title: changelog.processedArgs[0] as string }, now),
  );

  const roadmap = sub(group, 'roadmap', 'a roadmap item roadmap/<id>.md')
    .argument('<title>', "the item's title; the id is made from it")
    .addOption(choiceOption('--stage <stage>', 'where it stands', STAGES).makeOptionMandatory())
    .option('--theme <theme>', 'the theme it belongs to (required; see the themes in use)')
    .option('--body <paragraph>', "the item's one paragraph of Markdown (required)")
    .option('--shipped <entry-id>', 'for the stage shipped: the changelog entry that shipped it')
    .option('--order <n>', 'its position within the stage (default: after the ordered items, by title)')
    .option('--id <id>', 'the item id instead of one made from the title');
  run(roadmap, (folder) => newRoadmap(folder, { ...roadmap.opts<Omit<NewRoadmap, 'title'>>(), title: roadmap.processedArgs[0] as string }));
}

function sub(group: Command, name: string, description: string): Command {
  return group.command(name).description(description).option('--dir <dir>', 'the content folder', 'content');
}

/** Opens the folder, runs the task, prints the paths (stdout) and notes or the refusal (stderr); the exit status. */
async function execute(io: NewIo, dir: string, task: (folder: ContentFolder) => Promise<ScaffoldResult>): Promise<number> {
  try {
    const folder = await ContentFolder.open(resolve(io.cwd, dir), dir);
    const result = await task(folder);
    for (const path of [...result.created, ...result.changed]) io.stdout(path);
    for (const note of result.notes) io.stderr(`syllabus-content: ${note}`);
    return NEW_EXIT.written;
  } catch (err) {
    if (!(err instanceof ScaffoldError)) throw err;
    io.stderr(`syllabus-content: ${err.message}`);
    return err.status;
  }
}
