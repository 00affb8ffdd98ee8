import { test } from 'node:test';
import { STORYBOARD_STRINGS } from '../../../src/shared/storyboardStrings';
import { checkStringTable } from '../../support/stringTables';

void test('every storyboard string is distinct, non-empty English, translated with the same placeholders', () => {
  checkStringTable(STORYBOARD_STRINGS);
});
