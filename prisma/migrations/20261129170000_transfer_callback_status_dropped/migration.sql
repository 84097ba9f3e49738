-- A transfer's callback status is its callbacks row's status (one callback per transfer): the copy on the
-- transfer cost every delivery an update of the transfer's row and all of its indexes.
ALTER TABLE "transfers" DROP COLUMN "callback_status";
