module example.com/campaignbench

go 1.26
