import { DictHorizontalPage } from './DictLayoutPage';

export default DictHorizontalPage;
