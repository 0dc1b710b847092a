"""Ticket to Ride (USA map): rules, notation, scoring and bots."""
