/**
 * Options that take one of a few words, with a "did you mean" for a near miss: `--kind lessons` is told about
 * `lesson`, where commander's own `choices` only lists them.
 */
import { InvalidArgumentError, Option } from 'commander';
import { closest } from '../text/nearest.js';

/**
 * An option `flags` whose value must be one of `values` (listed in its help, as commander's `choices` does); a value
 * that is not one is a usage error naming them, and the closest one when it is near.
 */
export function choiceOption(flags: string, description: string, values: readonly string[]): Option {
  return new Option(flags, description).choices(values).argParser((value: string) => {
    if (values.includes(value)) return value;
    const near = closest(value, values);
    throw new InvalidArgumentError(`${near === undefined ? '' : `Did you mean "${near}"? `}Allowed choices are ${values.join(', ')}.`);
  });
}
