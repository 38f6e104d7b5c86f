-- Reserved for another branch's migration 0013 (issue 39): a placeholder so that the
-- levels run 1..n on this branch. Replaced by that branch's file at the merge.
SELECT 1;
