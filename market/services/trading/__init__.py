"""The market: listings and offers, transfers proposed and consented, the Authority's
decision, the rule checks a transfer must pass, the sale windows, what a balance is promised
to, the closing record, the pre-trade check, the buyer calculator and the price tape."""
