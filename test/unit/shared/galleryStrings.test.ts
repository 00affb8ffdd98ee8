import { test } from 'node:test';
import { GALLERY_STRINGS } from '../../../src/shared/galleryStrings';
import { checkStringTable } from '../../support/stringTables';

void test('every gallery string is distinct, non-empty English, translated with the same placeholders', () => {
  checkStringTable(GALLERY_STRINGS);
});
